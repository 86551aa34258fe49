import type { Bus, BusProducer } from "@fleet/bus";
import { corsOrigins, geocoderSettings, outboundAllowPrivate, type ApiEnv } from "@fleet/config";
import type { DbHandle } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore } from "@fleet/live";
import type { Mailer } from "@fleet/mail";
import type { ApiAppOptions } from "./app.js";
import { createBusCommandQueue } from "./lib/command-queue.js";
import { busDeadLetters } from "./lib/dead-letters.js";
import { busRulesNotices } from "./lib/rules-notices.js";
import { API_VERSION } from "./version.js";

export interface ApiStores {
  /** The records store: its queries, and its notices of changed users. */
  db: Pick<DbHandle, "db" | "listen">;
  live: LiveStore;
  history: HistoryStore;
  /** Where the API's mail goes (SMTP or the outbox). */
  mailer: Mailer;
  /** Reads the dead-letter topics for administrators. */
  bus: Bus;
  /** Sends GPRS commands (the `commands` topic), rules.changed notices and republished dead letters. */
  producer: BusProducer;
}

/** How the API is mounted, by its own server and by the all-in-one process alike: under /api, over these stores. */
export function apiAppOptions(
  config: Pick<
    ApiEnv,
    "OFFLINE_AFTER_MINUTES" | "OUTBOUND_ALLOW_PRIVATE" | "SMS_GATEWAY_ALLOW_PRIVATE" | "LIVE_CACHE_DEVICES" | "REDIS_URL" | "AUTH_LIMIT_PER_ADDRESS" | "AUTH_LIMIT_PER_EMAIL" | "FLEET_ALLOW_REGISTRATION" | "PUBLIC_URL" | "HOST" | "PORT" | "REPORTS_SCHEDULE_EVERY_SECONDS" | "GEOCODER_URL" | "GEOCODER_TIMEOUT_MS" | "DEVICE_MEDIA_KEEP" | "CORS_ORIGINS"
  >,
  stores: ApiStores,
): ApiAppOptions & { prefix: string } {
  return {
    prefix: "/api",
    db: stores.db.db,
    listen: (channel, handlers) => stores.db.listen(channel, handlers),
    live: stores.live,
    history: stores.history,
    commands: createBusCommandQueue({ producer: stores.producer }),
    deadLetters: busDeadLetters(stores.bus, stores.producer),
    rulesNotices: busRulesNotices({ producer: stores.producer }),
    mailer: stores.mailer,
    limitsRedisUrl: config.REDIS_URL,
    settings: {
      offlineAfterMs: config.OFFLINE_AFTER_MINUTES * 60_000,
      version: API_VERSION,
      smsGatewayAllowPrivate: outboundAllowPrivate(config),
      liveCacheDevices: config.LIVE_CACHE_DEVICES,
      authLimits: { perAddressPerMinute: config.AUTH_LIMIT_PER_ADDRESS, perEmailPerQuarterHour: config.AUTH_LIMIT_PER_EMAIL },
      allowRegistration: config.FLEET_ALLOW_REGISTRATION,
      publicUrl: config.PUBLIC_URL ?? localUrl(config.HOST, config.PORT),
      reportScheduleEveryMs: config.REPORTS_SCHEDULE_EVERY_SECONDS * 1000,
      geocoder: geocoderSettings(config),
      deviceMediaKeep: config.DEVICE_MEDIA_KEEP,
      corsOrigins: corsOrigins(config.CORS_ORIGINS),
    },
  };
}

/** The server's own address when PUBLIC_URL is unset: never the Host header a client sends, which would let it point reset links elsewhere. */
export function localUrl(host: string, port: number): string {
  const h = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${h}:${port}`;
}
