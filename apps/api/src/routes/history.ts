import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getHistory, storedEvents, type HistoryDeps } from "../domain/history.js";
import { endpoints } from "../lib/endpoints.js";
import { sendJsonWrite } from "../lib/json-write.js";

export const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, history, liveRecords } = app.services;
  const deps: HistoryDeps = { db, records: liveRecords, history, events: storedEvents(db) };
  const api = endpoints(app, ["History"]);

  api.get(
    "/get_history",
    {
      summary: "A device's positions in a period, grouped into drives, stops and events, in the user's units and timezone",
      query: contracts.GetHistoryQuerySchema,
      response: contracts.GetHistoryResponseSchema,
    },
    // A device-day is ~8,640 positions (~5 MB), written as JSON by hand by the domain
    // (docs/decisions.md, get_history).
    async ({ user, query, reply }) => sendJsonWrite(reply, await getHistory(deps, user, query)),
  );
};
