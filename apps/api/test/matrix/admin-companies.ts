/* The vendor's admin companies in the matrices: administrators only, platform-wide records (no user's). */
import { GeoCreatedSchema } from "@fleet/contracts";
import { ok } from "../fixture.js";
import type { MatrixGroup, Records, RequestSpec } from "./types.js";

const body = { name: "Acme UAB", vat_number: "LT100200300", registration_code: "302000111", address: "Gedimino pr. 1, Vilnius", comment: "Key client" };

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /admin/companies": () => ({ query: { search_phrase: "Acme", property: "name", limit: 10, page: 1, "sorting[sort_by]": "name", "sorting[sort]": "desc" } }),
  "post /admin/companies": () => ({ body }),
  "get /admin/companies/{id}": (o) => ({ params: { id: o.company } }),
  "put /admin/companies/{id}": (o) => ({ params: { id: o.company }, body }),
  "delete /admin/companies/{id}": (o) => ({ params: { id: o.company } }),
};

export const adminCompaniesGroup: MatrixGroup = {
  // The seed's user is no administrator; the administrator makes the company.
  async seed(h, _user, _base, tag) {
    return { company: ok(await h.post("/admin/companies", { user: h.admin, body: { ...body, name: `Company of ${tag}` } }), GeoCreatedSchema).id };
  },
  // Companies are no user's: administrators see them all, and only administrators do.
  privateText: () => [],
  idCases: [],
  listCases: [],
  accountOnly: ["get /admin/companies", "post /admin/companies", "get /admin/companies/{id}", "put /admin/companies/{id}", "delete /admin/companies/{id}"],
  valid,
};
