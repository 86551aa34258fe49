import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as reports from "../domain/reports.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, ["Report"]);

  api.get("/get_reports_types", { summary: "Every report type with its formats, fields and parameters, keyed by type id", response: contracts.GetReportsTypesResponseSchema }, reports.types);
  api.get("/get_reports", { summary: "The user's report definitions, a page at a time, by id; and the report types", query: contracts.GetReportsQuerySchema, response: contracts.GetReportsResponseSchema }, ({ user, query, req }) =>
    reports.list(db, user, query, req.url),
  );
  api.post("/add_report", { summary: "Save a report definition; fields its type does not use are ignored", body: contracts.AddReportBodySchema, response: contracts.AddReportResponseSchema }, ({ user, body }) =>
    reports.add(db, user, body),
  );
  api.post("/edit_report", { summary: "Rewrite a report definition: the body is the whole definition", body: contracts.EditReportBodySchema, response: contracts.OkSchema }, async ({ user, body }) => (await reports.edit(db, user, body), OK));
  api.get("/destroy_report", { summary: "Delete a report definition", query: contracts.ReportIdQuerySchema, response: contracts.OkSchema }, async ({ user, query }) => (await reports.destroy(db, user, query.report_id), OK));
};
