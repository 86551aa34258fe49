import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getHistory, storedEvents, type HistoryDeps } from "../domain/history.js";
import { endpoints } from "../lib/endpoints.js";
import { nativeJson } from "../lib/native-json.js";

export const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, history } = app.services;
  const deps: HistoryDeps = { db, history, events: storedEvents(db) };
  const api = endpoints(app, ["History"]);

  api.get(
    "/get_history",
    {
      summary: "A device's positions in a period, grouped into drives, stops and events, in the user's units and timezone",
      query: contracts.GetHistoryQuerySchema,
      response: contracts.GetHistoryResponseSchema,
      // A device-day is ~8,640 positions (~5 MB): JSON.stringify writes it 3 to 5 times faster
      // than the compiled serializer (docs/decisions.md, get_history).
      route: nativeJson,
    },
    ({ user, query }) => getHistory(deps, user, query),
  );
};
