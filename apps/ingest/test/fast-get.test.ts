import { connect, type AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryBus, type BusProducer } from "@fleet/bus";
import { ingestApp } from "../src/app.js";
import { createPublisher, type Publisher } from "../src/publisher.js";
import { ingestServerOptions } from "../src/server-options.js";
import { capturingLogger, recordRawPositions } from "./fixtures/recording.js";
import { forbiddenTextCases, formAttributesBody, specArrayInQuery, traccarForwardQuery, validFields } from "./fixtures/requests.js";

interface Answer {
  statusCode: number;
  contentType: string | undefined;
  body: unknown;
}

/**
 * The ingest server as server.ts builds it, listening on a port: requests over HTTP take the
 * fast GET path, `app.inject` goes straight to fastify's routes, so the two can be compared.
 */
async function server(publisherFor: (producer: BusProducer) => Publisher = (producer) => createPublisher({ producer, batchMax: 100, lingerMs: 1, sendTimeoutMs: 300 })) {
  const bus = createMemoryBus();
  const recording = await recordRawPositions(bus);
  const { logger, lines } = capturingLogger();
  const publisher = publisherFor(await bus.producer());
  const app = Fastify(ingestServerOptions(logger, publisher));
  await app.register(ingestApp, { publisher });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const overHttp = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(base + path, { headers });
    return { statusCode: res.status, contentType: res.headers.get("content-type") ?? undefined, body: await res.json() };
  };
  const throughFastify = async (path: string): Promise<Answer> => {
    const res = await app.inject({ method: "GET", url: path });
    return { statusCode: res.statusCode, contentType: res.headers["content-type"] as string | undefined, body: res.json() };
  };
  return {
    app,
    url: base,
    lines,
    received: recording.received,
    seen: recording.seen,
    overHttp,
    throughFastify,
    close: async () => {
      await app.close();
      await publisher.close();
      await recording.close();
      await bus.close();
    },
  };
}

const now = () => String(Date.now() - 1000);
const fresh = (query: string) => query.replace("fixTime=1732190400000", `fixTime=${now()}`);
const valid = (patch: Record<string, string> = {}) => new URLSearchParams({ ...validFields, fixTime: now(), ...patch }).toString();

let h: Awaited<ReturnType<typeof server>> | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("GET /insert.php on the fast path", () => {
  it.each([
    ["a Traccar forward URL", () => `/insert.php?${fresh(traccarForwardQuery)}`],
    ["form-style attributes in the query", () => `/insert.php?${fresh(formAttributesBody)}`],
    ["the spec's attribute array in the query", () => `/insert.php?${fresh(specArrayInQuery)}`],
    ["plus signs and escapes", () => `/insert.php?${valid({ uniqueId: "van 7/ü", protocol: "os mand" }).replace("van+7", "van%207")}`],
    ["a broken percent escape", () => `/insert.php?${valid().replace("protocol=osmand", "protocol=os%Amand%")}`],
    ["bytes that are not UTF-8 in an attribute value", () => `/insert.php?${valid()}&attributes%5Bnote%5D=a%E0%A4b`],
  ])("takes %s exactly as fastify's route does", async (_name, pathOf) => {
    h = await server();
    const path = pathOf();
    const fast = await h.overHttp(path);
    const routed = await h.throughFastify(path);
    expect(fast).toEqual({ statusCode: 200, contentType: "application/json; charset=utf-8", body: { status: 1 } });
    expect(routed).toEqual(fast);
    const [a, b] = await h.seen(2);
    const { id: _a, serverTime: _sa, ...fromFast } = a!;
    const { id: _b, serverTime: _sb, ...fromRoute } = b!;
    expect(fromFast).toEqual(fromRoute);
    expect(a!.id).not.toBe(b!.id);
  });

  it.each([
    ["no query", "/insert.php"],
    ["an empty query", "/insert.php?"],
    ["a latitude out of range", `/insert.php?${valid({ latitude: "91" })}`],
    ["a speed that is not a number", `/insert.php?${valid({ speed: "fast" })}`],
    ["a uniqueId given twice", `/insert.php?${valid()}&uniqueId=other`],
    ["a control character in the uniqueId", `/insert.php?${valid({ uniqueId: "a\u0001b" })}`],
    ["attributes that are not JSON", `/insert.php?${valid()}&attributes=%7Bbroken`],
    ["a NUL in the uniqueId", `/insert.php?${valid({ uniqueId: "a\u0000b" })}`],
    ["a NUL in an attribute value", `/insert.php?${valid({ attributes: JSON.stringify({ rfid: "zz\u0000zz" }) })}`],
    ["a lone surrogate in an attribute value, as a JSON escape", `/insert.php?${valid({ attributes: JSON.stringify({ rfid: "zz\ud800zz" }) })}`],
  ])("refuses %s exactly as fastify's route does, and publishes nothing", async (_name, path) => {
    h = await server();
    const fast = await h.overHttp(path);
    expect(fast.statusCode).toBe(422);
    expect(fast.body).toMatchObject({ status: 0, errors: expect.any(Object) });
    expect(await h.throughFastify(path)).toEqual(fast);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toEqual([]);
  });

  it.each([
    ["uniqueId", `/insert.php?${valid()}`.replace(/uniqueId=[^&]*/, "uniqueId=%FF%FE35210")],
    ["protocol", `/insert.php?${valid()}`.replace("protocol=osmand", "protocol=os%E0%A4mand")],
  ])("refuses a %s whose bytes are not UTF-8 with 400 naming it, as fastify's route does, and publishes nothing", async (field, path) => {
    h = await server();
    const fast = await h.overHttp(path);
    expect(fast).toEqual({ statusCode: 400, contentType: "application/json; charset=utf-8", body: { status: 0, error: `The ${field} contains bytes that are not valid UTF-8.` } });
    expect(await h.throughFastify(path)).toEqual(fast);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toEqual([]);
  });

  it("answers a URL over node's 16 KB in the failure shape and publishes nothing", async () => {
    h = await server();
    const long = await h.overHttp(`/insert.php?${valid()}&attributes%5Bnote%5D=${"x".repeat(17 * 1024)}`);
    expect(long).toEqual({ statusCode: 431, contentType: "application/json; charset=utf-8", body: { status: 0, error: "The request's URL and headers are over 16 KB: send long fields in a POST body." } });
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toEqual([]);
  });

  const forbidden = [...forbiddenTextCases("NUL"), ...forbiddenTextCases("lone surrogate")].filter((c) => c.query);
  it("refuses forbidden text in every field a query carries, naming the field as fastify's route does", async () => {
    h = await server();
    for (const { name, fields, field } of forbidden) {
      const path = `/insert.php?${new URLSearchParams(fields as Record<string, string>)}`;
      const fast = await h.overHttp(path);
      expect(fast, name).toEqual({ statusCode: 422, contentType: "application/json; charset=utf-8", body: { status: 0, errors: { [field]: expect.stringContaining("control characters") } } });
      expect(await h.throughFastify(path), name).toEqual(fast);
    }
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toEqual([]);
  });

  it("takes HTTP/1.1 without a Host header, as device firmware sends it, on the fast path and through fastify", async () => {
    h = await server();
    const port = new URL(h.url).port;
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => socket.write(request));
        let answer = "";
        socket.setEncoding("utf8").on("data", (c: string) => (answer += c)).on("end", () => resolve(answer)).on("error", reject);
      });
    const get = await raw(`GET /insert.php?${valid({ uniqueId: "no-host-get" })} HTTP/1.1\r\nConnection: close\r\n\r\n`);
    expect(get).toMatch(/^HTTP\/1\.1 200 /);
    const body = valid({ uniqueId: "no-host-post" });
    const post = await raw(`POST /insert.php HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect(post).toMatch(/^HTTP\/1\.1 200 /);
    expect((await h.seen(2)).map((p) => p.uniqueId).sort()).toEqual(["no-host-get", "no-host-post"]);
  });

  it("leaves other paths and methods to fastify", async () => {
    h = await server();
    expect(await h.overHttp(`/insert.phpx?${valid()}`)).toMatchObject({ statusCode: 404, body: { status: 0, error: "No route GET /insert.phpx." } });
    // fastify decodes the path; the fast path only knows the literal one and hands this over.
    expect(await h.overHttp(`/insert%2Ephp?${valid({ uniqueId: "encoded-path" })}`)).toMatchObject({ statusCode: 200, body: { status: 1 } });
    expect((await h.seen(1)).map((p) => p.uniqueId)).toEqual(["encoded-path"]);
  });

  it("keeps the timeouts fastify gives a server it makes itself", async () => {
    h = await server();
    const plain = Fastify();
    const { keepAliveTimeout, requestTimeout, timeout, maxRequestsPerSocket } = plain.server;
    expect({ keepAliveTimeout, requestTimeout, timeout, maxRequestsPerSocket }).toEqual({
      keepAliveTimeout: h.app.server.keepAliveTimeout,
      requestTimeout: h.app.server.requestTimeout,
      timeout: h.app.server.timeout,
      maxRequestsPerSocket: h.app.server.maxRequestsPerSocket,
    });
    expect(keepAliveTimeout).toBe(72_000);
    await plain.close();
  });

  it("answers 503 when the bus does not take the position, logging it with the request id", async () => {
    const stuck: BusProducer = { send: () => new Promise<void>(() => undefined), close: async () => undefined };
    h = await server(() => createPublisher({ producer: stuck, batchMax: 100, lingerMs: 1, sendTimeoutMs: 100 }));
    const answer = await h.overHttp(`/insert.php?${valid()}`, { "x-request-id": "gw-17" });
    expect(answer).toEqual({ statusCode: 503, contentType: "application/json; charset=utf-8", body: { status: 0, error: "The position queue is unavailable, try again later." } });
    expect(await h.throughFastify(`/insert.php?${valid()}`)).toEqual(answer);
    await h.overHttp(`/insert.php?${valid()}`);
    const warnings = h.lines.filter((l) => l.msg === "bus did not take positions");
    expect(warnings[0]).toMatchObject({ level: 40, reqId: "gw-17" });
    // Without the header, a fresh id, as fastify gives.
    expect(warnings.slice(1).map((l) => l.reqId)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  });

  it("survives a client that hangs up before its position is acknowledged", async () => {
    const acks: (() => void)[] = [];
    const slow: Publisher = {
      publish: () => new Promise<void>((resolve) => acks.push(resolve)),
      close: async () => undefined,
    };
    h = await server(() => slow);
    const gone = new AbortController();
    const hungUp = fetch(`${h.url}/insert.php?${valid()}`, { signal: gone.signal }).catch((err: Error) => err.name);
    while (acks.length === 0) await new Promise((r) => setTimeout(r, 5));
    gone.abort();
    expect(await hungUp).toBe("AbortError");
    acks.shift()!();
    await new Promise((r) => setTimeout(r, 20));
    const next = h.overHttp(`/insert.php?${valid()}`);
    while (acks.length === 0) await new Promise((r) => setTimeout(r, 5));
    acks.shift()!();
    expect(await next).toMatchObject({ statusCode: 200, body: { status: 1 } });
  });

  it("answers a failure it did not expect with a 500 in the failure shape, and logs it", async () => {
    const broken: Publisher = {
      publish: () => Promise.reject(new TypeError("publisher bug")),
      close: async () => undefined,
    };
    h = await server(() => broken);
    const answer = await h.overHttp(`/insert.php?${valid()}`, { "x-request-id": "gw-18" });
    expect(answer).toEqual({ statusCode: 500, contentType: "application/json; charset=utf-8", body: { status: 0, error: "Internal server error." } });
    expect(await h.throughFastify(`/insert.php?${valid()}`)).toEqual(answer);
    expect(h.lines.find((l) => l.reqId === "gw-18")).toMatchObject({ level: 50, msg: "request failed", err: expect.objectContaining({ message: "publisher bug" }) });
  });
});
