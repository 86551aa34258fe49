/*
 * Shared fixture for the API route tests: builds the app the way the servers do
 * (`Fastify(apiServerOptions())` + `apiApp` under /api) over a real records store and
 * drives it with `inject()`. Every suite runs once on PGlite and once on PostgreSQL.
 *
 *   describeApi("devices", (h) => {
 *     it("lists them", async () => {
 *       const user = await h.newUser();
 *       const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
 *     });
 *   });
 *
 * One database per suite: tests share it, so each test makes its own users (newUser)
 * and IMEIs (newImei) and never assumes it is alone. Opening PGlite costs seconds (its
 * WASM engine starts), so a test file calls describeApi once and nests its topics in it.
 */
import { randomInt } from "node:crypto";
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryBus, type Bus, type BusProducer } from "@fleet/bus";
import { AddDeviceResponseSchema, FailureError, MessageFailureSchema, ValidationFailureSchema, WrongCredentialsSchema, type LiveState } from "@fleet/contracts";
import { createUser, findUserByEmail, hashPassword, openDb, type CreateUserInput, type Db, type DbHandle, type User } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createMemoryLive, type LiveStore } from "@fleet/live";
import { hasService, sleep, tempChdbDir, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { apiApp, apiServerOptions, busDeadLetters, busRulesNotices, createBusCommandQueue, ensureAdmin, API_VERSION } from "../src/index.js";
import type { ApiSettings } from "../src/plugins/app/services.js";
import type { Mailer } from "@fleet/mail";
import type { Geocoder } from "@fleet/geocoder";
import { sharedSchemaController } from "./shared-compilers.js";

const hashes = new Map<string, Promise<string>>();
/** hashPassword, once per password: test users share a salt, which a test cannot tell apart. */
function hashOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
}

export type RecordsStore = "pglite" | "postgres";

/** A user row plus what a client holds: the password it logs in with and its api hash. */
export type TestUser = User & { password: string; hash: string };

export interface Reply {
  status: number;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
  text: string;
  /** The body's bytes, for answers that are not text (an image). */
  raw: Buffer;
  headers: Record<string, unknown>;
  /** "POST /api/login", for assertion messages. */
  label: string;
}

export type FormFields = Record<string, string | number | boolean>;
export type BodyEncoding = "json" | "form" | "multipart";

export interface CallOptions {
  /** The caller; its hash goes where `hashIn` says (query by default). */
  user?: { hash: string };
  /** An explicit hash (a wrong one, say); wins over `user`. */
  hash?: string;
  hashIn?: "query" | "body" | "header";
  /** `lang` in the query; "en" unless given, omitted when null. */
  lang?: string | null;
  query?: Record<string, string | number>;
  /** JSON: any value; form and multipart: flat fields. */
  body?: unknown;
  as?: BodyEncoding;
  headers?: Record<string, string>;
}

export const OFFLINE_AFTER_MS = 5 * 60_000;
export const ADMIN = { email: "admin@fleet.test", password: "admin-secret-1" };
/** The harness's SMS gateway timeout: short, so a test of a gateway that never answers is quick. */
export const SMS_GATEWAY_TIMEOUT_MS = 1000;

/** A message the API put on the bus through the harness's command queue; `value` parsed from JSON. */
export interface BusMessageSent {
  topic: string;
  key: string;
  value: unknown;
}


/**
 * Waits until the wall clock enters the next whole second. get_devices_latest speaks in
 * whole unix seconds and re-sends changes made in the second it returns (so none is
 * missed); a test that expects "nothing new" steps over a second boundary first.
 */
export async function nextSecond(): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + 5);
}

export function newImei(): string {
  return `35${String(randomInt(0, 1e12)).padStart(12, "0")}${randomInt(0, 10)}`;
}

/** A valid add_device body; override any field, or drop one by setting it to undefined. */
export function deviceFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    name: `Truck ${uniqueSuffix()}`,
    imei: newImei(),
    icon_id: 1,
    fuel_measurement_id: 1,
    tail_length: 5,
    min_moving_speed: 6,
    min_fuel_fillings: 10,
    min_fuel_thefts: 10,
  };
  const out = { ...base, ...overrides };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** A live state as the tracker writes it: a fix one second old, received now. */
export function liveState(deviceId: number, overrides: Partial<LiveState> = {}): LiveState {
  const now = Date.now();
  return {
    deviceId,
    positionId: randomInt(1, 2 ** 40),
    uniqueId: `imei-${deviceId}`,
    protocol: "osmand",
    latitude: 54.6872,
    longitude: 25.2797,
    altitude: 112.4,
    course: 271.3,
    speedKmh: 48.6,
    fixTime: now - 1000,
    serverTime: now,
    attributes: {},
    movedAt: now - 1000,
    odometerKm: 0,
    tail: [],
    ...overrides,
  };
}

/** Returns the value typed by `schema`, or fails listing where it differs from it. */
export function expectSchema<T extends TSchema>(schema: T, value: unknown, label = "body"): Static<T> {
  if (Value.Check(schema, value)) return value;
  const issues = [...Value.Errors(schema, value)]
    .slice(0, 12)
    .map((e) => `  ${e.path || "/"}: ${e.message} (got ${JSON.stringify(e.value)?.slice(0, 120)})`);
  expect.fail(`${label} does not match its schema:\n${issues.join("\n")}`);
}

/**
 * A page link as a client follows it: the link carries no credential (pagination.ts), so the
 * client signs it with its own api hash; this also checks that it carries none.
 */
export function signedLink(link: string | null, hash: string): string {
  if (link === null) throw new Error("no link to follow");
  if (/[?&]user_api_hash=/.test(link) || link.includes(hash)) throw new Error(`a page link carries the api hash: ${link}`);
  return `${link}${link.includes("?") ? "&" : "?"}user_api_hash=${hash}`;
}

/** Asserts a 200 whose body matches the route's response schema; returns it typed. */
export function ok<T extends TSchema>(res: Reply, schema: T): Static<T> {
  expect(res.status, `${res.label} → ${res.text}`).toBe(200);
  return expectSchema(schema, res.body, `${res.label} body`);
}

/** Asserts a 422 `{status: 0, errors}`; returns the errors by field. */
export function invalid(res: Reply): Record<string, string> {
  expect(res.status, `${res.label} → ${res.text}`).toBe(422);
  return expectSchema(ValidationFailureSchema, res.body, `${res.label} body`).errors;
}

/** Asserts `status` with `{status: 0, error}`; returns the message. */
export function failure(res: Reply, status: number): string {
  expect(res.status, `${res.label} → ${res.text}`).toBe(status);
  return expectSchema(MessageFailureSchema, res.body, `${res.label} body`).error;
}

/** Asserts the login failure: 401 `{status: 0, message: "Wrong credentials.", error: "Wrong credentials."}`. */
export function wrongCredentials(res: Reply): void {
  expect(res.status, `${res.label} → ${res.text}`).toBe(401);
  expect(expectSchema(WrongCredentialsSchema, res.body, `${res.label} body`)).toEqual({ status: 0, message: "Wrong credentials.", error: "Wrong credentials." });
}

async function encode(body: unknown, as: BodyEncoding): Promise<{ payload: string | Buffer; contentType: string }> {
  if (as === "json") return { payload: JSON.stringify(body), contentType: "application/json" };
  const fields = Object.entries(body as FormFields).map(([k, v]): [string, string] => [k, String(v)]);
  if (as === "form") return { payload: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" };
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  // Response serialises FormData exactly as fetch would send it, boundary included.
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! };
}

/**
 * A history store that opens chDB on a temp directory only if a route calls it (none
 * does yet), so suites do not pay for an engine they never use; close() closes it. A
 * Proxy rather than a hand-written object, so methods added to the port forward too.
 */
export function lazyChdbHistory(): HistoryStore {
  let opened: Promise<{ store: HistoryStore; cleanup(): Promise<void> }> | undefined;
  const open = () =>
    (opened ??= (async () => {
      const dir = await tempChdbDir();
      const store = createChdbHistory({ path: dir.path });
      await store.migrate();
      return { store, cleanup: dir.cleanup };
    })());
  const close = async () => {
    if (!opened) return;
    const { store, cleanup } = await opened;
    await store.close();
    await cleanup();
  };
  return new Proxy({} as HistoryStore, {
    get(_target, prop) {
      if (prop === "kind") return "chdb";
      if (prop === "close") return close;
      // Not a thenable, and nothing else for symbols (inspection, coercion).
      if (prop === "then" || typeof prop === "symbol") return undefined;
      return async (...args: unknown[]) => {
        const { store } = await open();
        const method = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[prop];
        if (typeof method !== "function") throw new TypeError(`history store has no method ${prop}`);
        return method.apply(store, args);
      };
    },
  });
}

export async function openRecords(kind: RecordsStore): Promise<{ handle: DbHandle; cleanup(): Promise<void> }> {
  if (kind === "pglite") {
    const tmp = await tempPglite();
    return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
  }
  const tmp = await tempPostgresDb();
  return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
}

interface Opened {
  app: FastifyInstance;
  handle: DbHandle;
  live: LiveStore;
  history: HistoryStore;
  /** The in-process bus behind the dead-letter topics and rules.changed (the command queue records instead). */
  bus: Bus;
  admin: TestUser;
  cleanup(): Promise<void>;
}

export class ApiHarness {
  private opened: Opened | undefined;
  /** Every 5xx answered, with the error behind it when there was one. */
  readonly serverErrors: string[] = [];
  /** The sign-in brake is off by default (a test makes hundreds of attempts from one address); auth-limits.test.ts sets its own. */
  readonly settings: ApiSettings = {
    offlineAfterMs: OFFLINE_AFTER_MS,
    version: API_VERSION,
    smsGatewayTimeoutMs: SMS_GATEWAY_TIMEOUT_MS,
    smsGatewayAllowPrivate: true,
    authLimits: { perAddressPerMinute: 1_000_000, perEmailPerQuarterHour: 1_000_000 },
  };
  /** Every message the command queue sent, in order (an in-memory bus producer records them). */
  readonly busMessages: BusMessageSent[] = [];
  /** While true, the API's bus refuses every send (commands and rules.changed notices), as a bus that is down would. */
  busDown = false;
  /** Calls inside upstreamFailing(): their 502/503 answers are the point of the test, not server errors. */
  private provokingUpstream = 0;

  /**
   * `logger`: where the app's log lines go (none by default); `limitsRedisUrl`: the rate limits' shared store; `mailer`: where its mail goes (none);
   * `geocoder`: where addresses come from (by default the offline one, as an API without GEOCODER_URL).
   */
  constructor(
    readonly kind: RecordsStore,
    private readonly options: { logger?: FastifyBaseLogger; limitsRedisUrl?: string; mailer?: Mailer; geocoder?: Geocoder } = {},
  ) {}

  private get o(): Opened {
    if (!this.opened) throw new Error("the harness is used outside its suite's beforeAll/afterAll");
    return this.opened;
  }
  get app(): FastifyInstance {
    return this.o.app;
  }
  get db(): Db {
    return this.o.handle.db;
  }
  get live(): LiveStore {
    return this.o.live;
  }
  /** chDB, opened on first use (only routes that need history open it). */
  get history(): HistoryStore {
    return this.o.history;
  }
  get bus(): Bus {
    return this.o.bus;
  }
  get admin(): TestUser {
    return this.o.admin;
  }

  async open(): Promise<void> {
    const { handle, cleanup } = await openRecords(this.kind);
    await handle.migrate();
    const live = createMemoryLive();
    const history = lazyChdbHistory();
    const app = Fastify({ ...apiServerOptions(), schemaController: sharedSchemaController, ...(this.options.logger ? { loggerInstance: this.options.logger } : {}) });
    // Root hooks, added before the app: they see every request, 404s and parser errors included.
    const errors = new WeakMap<object, string>();
    // A FailureError is an answer the code chose (an upstream's 502/503), not a fault behind one.
    const chosen = new WeakSet<object>();
    app.addHook("onError", async (req, _reply, err) => {
      errors.set(req, err.stack ?? String(err));
      if (err instanceof FailureError) chosen.add(req);
    });
    app.addHook("onResponse", async (req, reply) => {
      const provoked = this.provokingUpstream > 0 && (reply.statusCode === 502 || reply.statusCode === 503) && (!errors.has(req) || chosen.has(req));
      if (reply.statusCode >= 500 && !provoked) this.serverErrors.push(`${req.method} ${req.url} → ${reply.statusCode}${errors.has(req) ? `\n${errors.get(req)}` : ""}`);
    });
    const producer: BusProducer = {
      send: async (topic, messages) => {
        if (this.busDown) throw new Error("the test bus is down");
        for (const m of messages) this.busMessages.push({ topic, key: m.key, value: JSON.parse(m.value.toString()) });
      },
      close: async () => undefined,
    };
    const commands = createBusCommandQueue({ producer, sendTimeoutMs: 2000 });
    const bus = createMemoryBus();
    const busProducer = await bus.producer();
    const deadLetters = busDeadLetters(bus, busProducer);
    // Notices land on the in-process bus, where a test reads them with bus.read(Topics.rulesChanged).
    const rulesNotices = busRulesNotices({
      producer: { send: (topic, messages, o) => (this.busDown ? Promise.reject(new Error("the test bus is down")) : busProducer.send(topic, messages, o)), close: async () => undefined },
      sendTimeoutMs: 2000,
    });
    await app.register(apiApp, { prefix: "/api", db: handle.db, listen: handle.listen, live, history, commands, deadLetters, rulesNotices, settings: this.settings, limitsRedisUrl: this.options.limitsRedisUrl, mailer: this.options.mailer, geocoder: this.options.geocoder });
    await app.ready();
    await ensureAdmin(handle.db, ADMIN.email, ADMIN.password);
    const adminRow = (await findUserByEmail(handle.db, ADMIN.email))!;
    this.opened = {
      app,
      handle,
      live,
      history,
      bus,
      admin: { ...adminRow, password: ADMIN.password, hash: adminRow.apiHash },
      cleanup,
    };
  }

  async close(): Promise<void> {
    const o = this.opened;
    this.opened = undefined;
    if (!o) return;
    await o.app.close();
    await Promise.all([o.live.close(), o.history.close(), o.bus.close()]);
    await o.handle.close();
    await o.cleanup();
  }

  /**
   * A fresh user (unique email, password "secret-pw-1") created in the records store. Its
   * password hash is a real one, so logging in checks it, but made once per password and
   * suite: scrypt costs about 0.1 s of CPU a user, and suites make thousands.
   */
  async newUser(input: Partial<CreateUserInput> = {}): Promise<TestUser> {
    const password = input.password ?? "secret-pw-1";
    const user = await createUser(this.db, { email: `u-${uniqueSuffix()}@example.com`, ...input, password }, hashOnce);
    return { ...user, password, hash: user.apiHash };
  }

  /**
   * Runs `fn`, in which a test makes an upstream fail on purpose (an SMS gateway that
   * answers 500, a bus that is down): the 502 and 503 answers the API gives for those
   * (sent by a route, not thrown) do not count as server errors.
   */
  async upstreamFailing<T>(fn: () => Promise<T>): Promise<T> {
    this.provokingUpstream++;
    try {
      return await fn();
    } finally {
      this.provokingUpstream--;
    }
  }

  /** Adds a device through the API (JSON body) and returns its id. */
  async addDevice(user: { hash: string }, overrides: Record<string, unknown> = {}): Promise<number> {
    return ok(await this.post("/add_device", { user, body: deviceFields(overrides) }), AddDeviceResponseSchema).id;
  }

  /** Raw inject, for bodies the helpers cannot express; responses still count for the 5xx check. */
  async inject(opts: InjectOptions & { url: string }): Promise<Reply> {
    const res = await this.app.inject(opts);
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, body, text: res.body, raw: res.rawPayload, headers: res.headers, label: `${opts.method ?? "GET"} ${opts.url}` };
  }

  async request(method: "GET" | "POST" | "PUT" | "DELETE", path: string, opts: CallOptions = {}): Promise<Reply> {
    const query: Record<string, string> = {};
    if (opts.lang !== null) query.lang = opts.lang ?? "en";
    const headers: Record<string, string> = { ...opts.headers };
    const hash = opts.hash ?? opts.user?.hash;
    let body = opts.body;
    if (hash !== undefined) {
      const where = opts.hashIn ?? "query";
      if (where === "query") query.user_api_hash = hash;
      else if (where === "header") headers["user-api-hash"] = hash;
      else body = { ...(body as Record<string, unknown>), user_api_hash: hash };
    }
    for (const [k, v] of Object.entries(opts.query ?? {})) query[k] = String(v);
    let payload: string | Buffer | undefined;
    if (body !== undefined) {
      const encoded = await encode(body, opts.as ?? "json");
      payload = encoded.payload;
      headers["content-type"] = encoded.contentType;
    }
    return this.inject({ method, url: `/api${path}`, query, headers, ...(payload === undefined ? {} : { payload }) });
  }

  get(path: string, opts?: CallOptions): Promise<Reply> {
    return this.request("GET", path, opts);
  }

  post(path: string, opts?: CallOptions): Promise<Reply> {
    return this.request("POST", path, opts);
  }
}

function suite(kind: RecordsStore, body: (h: ApiHarness) => void): void {
  const h = new ApiHarness(kind);
  beforeAll(() => h.open());
  afterAll(() => h.close());
  body(h);
  // Last in the suite (tests run in order): whatever the tests above asserted, none of
  // their requests may have ended in a server error.
  it("answered no request with a 5xx", () => {
    expect(h.serverErrors, h.serverErrors.join("\n\n")).toEqual([]);
  });
}

/** Runs `body` against PGlite, and against PostgreSQL when one answers. */
export function describeApi(title: string, body: (h: ApiHarness) => void): void {
  describe(`${title} [pglite]`, () => suite("pglite", body));
  // Needs the PostgreSQL server of infra/ (TEST_DATABASE_URL). Where none answers (a
  // machine without infra/up.sh) this half is skipped and global setup prints why; under
  // CI=true global setup fails the run instead, so CI never skips it silently.
  describe.runIf(hasService("postgres"))(`${title} [postgres]`, () => suite("postgres", body));
}
