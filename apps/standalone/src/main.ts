import { mkdirSync } from "node:fs";
import path from "node:path";
import Fastify from "fastify";
import type { Logger } from "pino";
import { apiApp, apiAppOptions, apiServerOptions, assertSafeAdmin, assertSafeAdminPassword, ensureAdmin, mapImageRoutes, type AdminAccount } from "@fleet/api";
import { createMemoryBus } from "@fleet/bus";
import { geocoderSettings, historySettings, listenAt, outboundAllowPrivate, trackerSettings, type StandaloneEnv } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createGeocoder } from "@fleet/geocoder";
import { createHistory, type HistoryStore } from "@fleet/history";
import { createPublisher, ingestApp, ingestServerOptions, startOsmandServer, type OsmandServer } from "@fleet/ingest";
import { createLive } from "@fleet/live";
import { createMailer } from "@fleet/mail";
import { startRules } from "@fleet/rules";
import { startTracker } from "@fleet/tracker";
import { catchUpLiveStates } from "./live-catch-up.js";

export interface Standalone {
  url: string;
  /** Where phones send the OsmAnd protocol at the root, when OSMAND_PORT is set. */
  osmandUrl?: string;
  /** Whether this start created the administrator, and the password it generated if it did. */
  admin: AdminAccount;
  /** The history store, for tests that check what reached it. */
  history: HistoryStore;
  close(): Promise<void>;
}

/**
 * All four apps in one process. Each store is the configured one, or its embedded
 * adapter when unset (PGlite and chDB under DATA_DIR, memory for the live store); the
 * bus is in-process, since ingest and tracker share this process.
 */
/** How long a clean stop waits for the tracker and the rules to handle what ingest acknowledged. */
const DRAIN_MS = 30_000;

export async function startStandalone(config: StandaloneEnv, logger: Logger): Promise<Standalone> {
  assertSafeAdminPassword({ host: config.HOST, password: config.FLEET_ADMIN_PASSWORD });
  const dataDir = path.resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });

  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir });
  await db.migrate();
  const admin = await ensureAdmin(db.db, config.FLEET_ADMIN_EMAIL, config.FLEET_ADMIN_PASSWORD);
  try {
    await assertSafeAdmin(db.db, { host: config.HOST, email: config.FLEET_ADMIN_EMAIL, password: config.FLEET_ADMIN_PASSWORD });
  } catch (err) {
    await db.close();
    throw err;
  }
  const history = createHistory({ ...historySettings(config), dataDir });
  await history.migrate();
  const live = createLive({ redisUrl: config.REDIS_URL, snapshotPath: config.REDIS_URL ? undefined : path.join(dataDir, "live.json") });
  const bus = createMemoryBus();
  // A stale state is better than no server: a failure here is logged and the start goes on.
  await catchUpLiveStates(db.db, live, history).then(
    (caughtUp) => caughtUp > 0 && logger.info({ devices: caughtUp }, "live states older than history (the last stop was not clean) rebuilt from history"),
    (err: unknown) => logger.warn({ err }, "could not compare the live states with history; they are used as they were saved"),
  );

  const tracker = await startTracker({
    bus,
    db: db.db,
    history,
    live,
    logger: logger.child({ app: "tracker" }),
    ...trackerSettings(config),
  });
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir, logger: logger.child({ part: "mail" }) });
  // One geocoder (and one offline table or answer cache) for the API's addresses and the alerts' notifications.
  const geocoder = createGeocoder({ ...geocoderSettings(config), logger: logger.child({ part: "geocoder" }) });
  const rules = await startRules({ bus, db: db.db, live, logger: logger.child({ app: "rules" }), mailer, geocoder, allowPrivate: outboundAllowPrivate(config), notificationsRetentionDays: config.NOTIFICATIONS_RETENTION_DAYS });
  const publisher = createPublisher({
    producer: await bus.producer(),
    batchMax: config.INGEST_BATCH_MAX,
    lingerMs: config.INGEST_LINGER_MS,
    sendTimeoutMs: config.INGEST_SEND_TIMEOUT_MS,
  });

  // GPRS commands wait on the in-process bus's `commands` topic for a device gateway.
  const commandProducer = await bus.producer();

  // The ingest server's options (GET /insert.php before fastify, its query parser, no
  // per-request log lines) with the API's (validation, body limit, path segments) on top.
  const ingestOptions = ingestServerOptions(logger, publisher);
  const apiOptions = apiServerOptions();
  const app = Fastify({ ...ingestOptions, ...apiOptions, routerOptions: { ...ingestOptions.routerOptions, ...apiOptions.routerOptions } });
  await app.register(ingestApp, { publisher });
  await app.register(apiApp, { ...apiAppOptions(config, { db, live, history, bus, producer: commandProducer, mailer }), geocoder });
  await app.register(mapImageRoutes);
  let osmand: OsmandServer | undefined;
  const close = async () => {
    await Promise.all([app.close(), osmand?.close()]);
    // Ingest first, so what it acknowledged reaches the tracker before the tracker stops; then
    // the tracker and the rules handle all of it: the in-process bus keeps nothing across a restart.
    await publisher.close();
    const left = await bus.drain(DRAIN_MS, (pending) => logger.info({ pending }, "stopping: handling the positions already acknowledged"));
    if (left > 0) logger.warn({ unhandled: left }, `stopping before ${left} acknowledged messages were handled (${DRAIN_MS / 1000} s); they are lost`);
    await commandProducer.close();
    await tracker.close();
    await rules.close();
    await bus.close();
    await Promise.all([history.close(), live.close(), db.close(), mailer.close()]);
  };
  try {
    const url = await listenAt({ host: config.HOST, port: config.PORT, setting: "PORT" }, (at) => app.listen(at));
    const { OSMAND_PORT } = config;
    if (OSMAND_PORT !== undefined) osmand = await listenAt({ host: config.HOST, port: OSMAND_PORT, setting: "OSMAND_PORT" }, (at) => startOsmandServer({ logger, publisher, ...at }));
    return { url, osmandUrl: osmand?.url, admin, history, close };
  } catch (err) {
    // An address it cannot take (a ListenError) leaves nothing open, so the stores may be opened again.
    await close();
    throw err;
  }
}
