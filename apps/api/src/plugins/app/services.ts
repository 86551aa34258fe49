import { findUserByApiHash, movingSpeedsOf, onDevicesChanged, onEventsRecorded, onUsersChanged, ownersOf, USERS_CHANGED_CHANNEL, type Db, type DbHandle, type NoticeListener } from "@fleet/db";
import { createGeocoder, type Geocoder } from "@fleet/geocoder";
import { historyPager, type HistoryPager, type HistoryStore } from "@fleet/history";
import type { LiveStore } from "@fleet/live";
import { MailError, type Mailer } from "@fleet/mail";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { CommandQueue } from "../../lib/command-queue.js";
import type { DeadLetters } from "../../lib/dead-letters.js";
import { liveRecordCache, type LiveRecordCache } from "../../lib/live-records.js";
import { liveStateCache, type LiveStateCache } from "../../lib/live-states.js";
import { restoringLive } from "../../lib/restoring-live.js";
import { rulesNotices, type RulesNoticeSender, type RulesNotices } from "../../lib/rules-notices.js";
import { userCache, type UserCache } from "../../lib/user-cache.js";
import { slots, type Slots } from "../../lib/slots.js";
import type { AuthLimits } from "./auth-limits.js";

export interface ApiSettings {
  /** A device with no fix for this long shows as offline. */
  offlineAfterMs: number;
  version: string;
  /** How long one request to an account's SMS gateway may take. Default 10 s. */
  smsGatewayTimeoutMs?: number;
  /** Whether account SMS gateways may be at private or loopback addresses (a gateway on the same network). Default false. */
  smsGatewayAllowPrivate?: boolean;
  /** How many device records the live list's cache holds, over all users. Default 100,000. */
  liveCacheDevices?: number;
  /** The brake on sign-in attempts; DEFAULT_AUTH_LIMITS when absent. */
  authLimits?: AuthLimits;
  /** Whether anyone may open an account with `register` (FLEET_ALLOW_REGISTRATION). Default false. */
  allowRegistration?: boolean;
  /** The server as its users reach it, for links in mail. Default http://127.0.0.1:8080. */
  publicUrl?: string;
  /** How often scheduled reports are looked for and mailed (REPORTS_SCHEDULE_EVERY_SECONDS); off when absent or 0. */
  reportScheduleEveryMs?: number;
  /** Where addresses come from (GEOCODER_URL, GEOCODER_TIMEOUT_MS): a Nominatim server, or the offline nearest town when no url. */
  geocoder?: { url?: string; timeoutMs?: number };
  /** Photos kept per device (DEVICE_MEDIA_KEEP): an upload beyond it deletes the device's oldest. Default contracts' DEVICE_MEDIA_KEEP. */
  deviceMediaKeep?: number;
  /** Origins whose pages may call the API from a browser (CORS_ORIGINS): "*" for any, the default; none when empty. */
  corsOrigins?: "*" | readonly string[];
}

export interface Services {
  db: Db;
  live: LiveStore;
  history: HistoryStore;
  /** Pages of a device's history by number, with the per-range indexes that keep deep pages fast. */
  historyPages: HistoryPager;
  /** The live list's device records, kept fresh by the live store's record index. */
  liveRecords: LiveRecordCache;
  /** Devices' states for the whole-fleet lists, kept fresh by the live store's change index. */
  liveStates: LiveStateCache;
  /** Users by api hash, kept fresh by the database's notices. */
  users: UserCache;
  /** Where GPRS commands go to reach the device gateways (the bus's `commands` topic). */
  commands: CommandQueue;
  /** The dead-letter topics, for administrators. */
  deadLetters: DeadLetters;
  /** Tells the rules service (`rules.changed`) that users' or devices' rule records changed; never fails a request. */
  rulesNotices: RulesNotices;
  /** Where password reminders (and later alerts and reports) are mailed. */
  mailer: Mailer;
  /** Addresses of points and points of addresses; never rejects (a failed lookup is an empty address). */
  geocoder: Geocoder;
  /** Reports made at once by this process (generate_report and the scheduled ones): one, the rest wait. */
  reportSlots: Slots;
  settings: ApiSettings;
}

/**
 * What the API is given; the services it builds on them (the caches) are its own.
 * `listen`: the database's notices, without which no user is kept between requests.
 */
export type ServicesOptions = Omit<Services, "liveRecords" | "liveStates" | "users" | "mailer" | "historyPages" | "rulesNotices" | "geocoder" | "reportSlots"> & {
  /** Absent (tests of other routes), every mail fails as unconfigured. */
  mailer?: Mailer;
  /** A geocoder of the caller's (a test's); absent, one is made from settings.geocoder with the app's logger. */
  geocoder?: Geocoder;
  /** Where rules.changed notices go (the bus). Absent (tests of other routes), none is sent. */
  rulesNotices?: RulesNoticeSender;
  listen?: DbHandle["listen"];
  /** Redis for the rate limits' counts, shared by every api instance; in process when absent. */
  limitsRedisUrl?: string;
};

const noMailer: Mailer = {
  kind: "outbox",
  send: () => Promise.reject(new MailError("config", "this API was started without a mailer")),
  close: async () => undefined,
};

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}

/** The stores and settings every route uses, as one typed decorator. */
export default fp(
  async function services(app: FastifyInstance, opts: ServicesOptions) {
    const live = restoringLive({
      live: opts.live,
      history: opts.history,
      movingSpeedsOf: (ids) => movingSpeedsOf(opts.db, ids),
      ownersOf: (ids) => ownersOf(opts.db, ids),
      logger: app.log,
    });
    const maxDevices = opts.settings.liveCacheDevices ?? 100_000;
    const liveRecords = liveRecordCache(opts.db, live, { maxDevices });
    const liveStates = liveStateCache(live, { maxDevices });
    const notices = rulesNotices(opts.rulesNotices, app.log);
    // The one place a device change reaches the live list and the rules service: every
    // write announces its own (device, sensors, users sharing it, deletion), after commit.
    // Side by side, so the notice adds no wait; it never rejects, so only the live mark can fail the write's announcement, as before.
    onDevicesChanged(opts.db, async (changed) => {
      await Promise.all([live.markChanged(changed), notices.changed({ deviceIds: changed.map((c) => c.deviceId) })]);
    });
    onEventsRecorded(opts.db, (recorded) => live.markEvents(recorded));
    let listener: NoticeListener | undefined;
    const users = userCache((hash) => findUserByApiHash(opts.db, hash), { maxUsers: 100_000, listening: () => listener?.listening ?? false });
    onUsersChanged(opts.db, (ids) => users.forgetUsers(ids));
    if (opts.listen) {
      listener = await opts.listen(USERS_CHANGED_CHANNEL, users);
      app.addHook("onClose", () => listener!.close());
    }
    const geocoder = opts.geocoder ?? createGeocoder({ ...opts.settings.geocoder, logger: app.log.child({ part: "geocoder" }) });
    app.decorate("services", { db: opts.db, live, liveRecords, liveStates, users, history: opts.history, historyPages: historyPager(opts.history), commands: opts.commands, deadLetters: opts.deadLetters, rulesNotices: notices, mailer: opts.mailer ?? noMailer, geocoder, reportSlots: slots(1), settings: opts.settings });
  },
  { name: "services" },
);
