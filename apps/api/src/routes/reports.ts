import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { downloadReport, type DownloadDeps } from "../domain/report-download.js";
import { generateReport, type ReportGenerateDeps } from "../domain/report-generate.js";
import * as reports from "../domain/reports.js";
import { OK, endpoints } from "../lib/endpoints.js";

/** How long generate_report waits for a file before answering its link anyway, and how long a link works. */
const GENERATE_WAIT_MS = 20_000;
const LINK_TTL_MS = 24 * 3_600_000;

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, history, liveRecords, mailer, geocoder, reportSlots } = app.services;
  const api = endpoints(app, ["Report"]);
  const generating: ReportGenerateDeps = { db, records: liveRecords, history, geocoder, mailer, slots: reportSlots, logger: app.log, waitMs: GENERATE_WAIT_MS, ttlMs: LINK_TTL_MS };

  api.get("/get_reports_types", { summary: "Every report type with its formats, fields and parameters, keyed by type id", response: contracts.GetReportsTypesResponseSchema }, reports.types);
  api.get("/get_reports", { summary: "The user's report definitions, a page at a time, by id; and the report types", query: contracts.GetReportsQuerySchema, response: contracts.GetReportsResponseSchema }, ({ user, query, req }) =>
    reports.list(db, user, query, req.url),
  );
  api.get("/add_report_data", { summary: "What a report form offers: the user's devices and geofences, the formats, stops, period filters and types, and the first page of get_reports", response: contracts.AddReportDataResponseSchema }, ({ user, req }) =>
    reports.addData(db, user, req.url),
  );
  api.post("/add_report", { summary: "Save a report definition; fields its type does not use are ignored", body: contracts.AddReportBodySchema, response: contracts.AddReportResponseSchema }, ({ user, body }) =>
    reports.add(db, user, body),
  );
  api.post("/edit_report", { summary: "Rewrite a report definition: the body is the whole definition", body: contracts.EditReportBodySchema, response: contracts.OkSchema }, async ({ user, body }) => (await reports.edit(db, user, body), OK));
  api.get("/destroy_report", { summary: "Delete a report definition", query: contracts.ReportIdQuerySchema, response: contracts.OkSchema }, async ({ user, query }) => (await reports.destroy(db, user, query.report_id), OK));
  api.post(
    "/generate_report",
    { summary: "Make a report of a period: answers status 3 and the link that downloads the file (the link itself authorises the download, for a day)", body: contracts.GenerateReportBodySchema, response: contracts.GenerateReportResponseSchema },
    ({ user, body, req }) => generateReport(generating, user, body, `${req.protocol}://${req.host}${req.url.slice(0, req.url.indexOf("/generate_report"))}`),
  );
};

/**
 * The download of a generated report, outside the signed-in routes: its link's token is what
 * authorises it (domain/report-download.ts).
 */
export const reportDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps: DownloadDeps = { db: app.services.db, userByHash: (hash) => app.services.users.byApiHash(hash), waitMs: GENERATE_WAIT_MS, pollMs: 250 };
  app.get(
    "/report_download",
    {
      schema: {
        tags: ["Report"],
        summary: "Download a generated report by the link generate_report answered; a wrong, expired or another user's link is missing",
        querystring: Type.Object({ token: Type.String({ minLength: 20, maxLength: 200 }), user_api_hash: Type.Optional(Type.String({ maxLength: 200 })), lang: Type.Optional(Type.String({ maxLength: 8 })) }),
        response: { 200: Type.Unsafe<Buffer>({ type: "string", format: "binary", description: "the file: html, xlsx or pdf" }), ...contracts.FailureResponses },
      },
    },
    async (req, reply) => {
      const header = req.headers["user-api-hash"];
      const hash = (typeof header === "string" && header !== "" ? header : undefined) ?? (req.query.user_api_hash || undefined);
      const file = await downloadReport(deps, req.query.token, hash);
      const inline = file.contentType.startsWith("text/html");
      return reply
        .header("content-type", file.contentType)
        .header("content-disposition", `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
        .header("cache-control", "private, no-store")
        .send(file.body);
    },
  );
};
