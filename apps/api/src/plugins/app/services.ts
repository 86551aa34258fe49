import type { Db } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore } from "@fleet/live";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { CommandQueue } from "../../lib/command-queue.js";

export interface ApiSettings {
  /** A device with no fix for this long shows as offline. */
  offlineAfterMs: number;
  version: string;
  /** How long one request to an account's SMS gateway may take. Default 10 s. */
  smsGatewayTimeoutMs?: number;
  /** Whether account SMS gateways may be at private or loopback addresses (a gateway on the same network). Default false. */
  smsGatewayAllowPrivate?: boolean;
}

export interface Services {
  db: Db;
  live: LiveStore;
  history: HistoryStore;
  /** Where GPRS commands go to reach the device gateways (the bus's `commands` topic). */
  commands: CommandQueue;
  settings: ApiSettings;
}

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}

/** The stores and settings every route uses, as one typed decorator. */
export default fp(
  async function services(app: FastifyInstance, opts: Services) {
    app.decorate("services", { db: opts.db, live: opts.live, history: opts.history, commands: opts.commands, settings: opts.settings });
  },
  { name: "services" },
);
