import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { deleteHistoryPositions, historyMessages, type HistoryMessagesDeps } from "../domain/history-messages.js";
import { exportHistory } from "../domain/history-export.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const historyMessageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live, liveRecords, history, historyPages } = app.services;
  const deps: HistoryMessagesDeps = { db, records: liveRecords, live, history, pager: historyPages };
  const api = endpoints(app, ["History"]);

  api.get(
    "/get_history_messages",
    {
      summary: "A page of a device's raw positions in a period (user's clock and units), with each sensor read at each fix",
      query: contracts.GetHistoryMessagesQuerySchema,
      response: contracts.GetHistoryMessagesResponseSchema,
    },
    ({ user, query, req }) => historyMessages(deps, user, query, req.url),
  );
  api.post(
    "/delete_history_positions",
    {
      summary: "Delete positions (one id or a list) of the user's devices; others' ids are ignored like missing ones",
      query: contracts.DeleteHistoryPositionsQuerySchema,
      body: contracts.DeleteHistoryPositionsBodySchema,
      response: contracts.DeleteHistoryPositionsResponseSchema,
    },
    async ({ user, query, body }) => (await deleteHistoryPositions(deps, user, body, query.device_id), OK),
  );
  api.get(
    "/export_history",
    { summary: "A device's positions in a period as a GPX, KML or CSV file (not in the vendor's API)", query: contracts.ExportHistoryQuerySchema, response: contracts.ExportHistoryResponseSchema },
    ({ user, query, reply }) => exportHistory({ db, history }, user, query, reply),
  );
};
