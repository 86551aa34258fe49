import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { assertAdministrator } from "../domain/admin.js";
import * as companies from "../domain/admin-companies.js";
import { endpoints } from "../lib/endpoints.js";
import { currentUser } from "../plugins/app/auth.js";

// Every route here may answer 403 (see the preValidation hook below).
const failures = { 403: Type.Object({ status: Type.Literal(0), error: Type.String() }) };

/** The vendor's admin companies (REST paths, PUT and DELETE); administrators only, anyone else gets 403. */
export const adminCompanyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  // preValidation (after authenticate, before the schemas): a non-administrator gets 403
  // whatever the request holds, rather than 422s that describe what the route accepts.
  app.addHook("preValidation", async (req) => assertAdministrator(currentUser(req)));
  const api = endpoints(app, ["Admin Companies"]);
  const params = contracts.AdminCompanyIdParamsSchema;

  api.get(
    "/admin/companies",
    { summary: "A page of the companies, searched (search_phrase, in property or any text field) and sorted (sorting[sort_by], sorting[sort])", query: contracts.AdminCompaniesQuerySchema, response: contracts.AdminCompaniesResponseSchema, failures },
    ({ user, query, req }) => companies.list(db, user, query, req.url),
  );
  api.post("/admin/companies", { summary: "Create a company", body: contracts.AdminCompanyBodySchema, response: contracts.GeoCreatedSchema, failures }, ({ user, body }) => companies.create(db, user, body));
  api.get("/admin/companies/:id", { summary: "One company", params, response: contracts.AdminCompanyResponseSchema, failures }, ({ user, params }) => companies.get(db, user, params.id));
  api.put("/admin/companies/:id", { summary: "Change a company; fields left out keep their values", params, body: contracts.AdminCompanyUpdateBodySchema, response: contracts.GeoOkSchema, failures }, ({ params, body }) =>
    companies.update(db, params.id, body),
  );
  api.delete("/admin/companies/:id", { summary: "Delete a company", params, response: contracts.GeoOkSchema, failures }, ({ params }) => companies.destroy(db, params.id));
};
