import { Type, type Static } from "@sinclair/typebox";
import { RecordIdSchema } from "./geofences.js";
import { LaravelPaginated, PageQuery } from "./pagination.js";

/*
 * The vendor's admin companies: platform-wide records that only administrators list, read
 * and write (`/admin/companies`, REST paths with PUT and DELETE).
 */

/** The text fields a list's `search_phrase` looks in; `property` names one of them to look only there. */
export const companySearchColumns = ["name", "vat_number", "registration_code", "address", "comment"] as const;
export type CompanySearchColumn = (typeof companySearchColumns)[number];

/** What `sorting[sort_by]` may name; text sorts in any case. */
export const companySortColumns = ["id", "name", "vat_number", "registration_code", "address", "created_at", "updated_at"] as const;
export type CompanySortColumn = (typeof companySortColumns)[number];

/** How many companies a page holds unless `limit` (or `per_page`) says, as the vendor's example shows. */
export const COMPANIES_PER_PAGE = 50;

/**
 * A company as the vendor's record has it (`vat_number`, which its schema misspells
 * `var_number`). `user_id`, the administrator who created it, is left out once that account
 * is gone: the Swagger types it as an integer, so not null.
 */
export const AdminCompanySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  vat_number: Type.String(),
  registration_code: Type.String(),
  address: Type.String(),
  comment: Type.String(),
  created_at: Type.String({ description: "in the administrator's timezone" }),
  updated_at: Type.String({ description: "in the administrator's timezone" }),
  user_id: Type.Optional(Type.Integer({ description: "the administrator who created it; left out once that account is gone" })),
});
export type AdminCompany = Static<typeof AdminCompanySchema>;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  vat_number: Type.Optional(Type.String({ maxLength: 64, description: `"" when left out of a new company` })),
  registration_code: Type.Optional(Type.String({ maxLength: 64, description: `"" when left out of a new company` })),
  address: Type.Optional(Type.String({ maxLength: 255, description: `"" when left out of a new company` })),
  comment: Type.Optional(Type.String({ maxLength: 5000, description: `"" when left out of a new company` })),
};

/** `POST /admin/companies`: the name is required, the rest "" when left out. */
export const AdminCompanyBodySchema = Type.Object(fields);
export type AdminCompanyBody = Static<typeof AdminCompanyBodySchema>;

/** `PUT /admin/companies/{id}`: fields left out keep their values. */
export const AdminCompanyUpdateBodySchema = Type.Partial(AdminCompanyBodySchema);
export type AdminCompanyUpdateBody = Static<typeof AdminCompanyUpdateBodySchema>;

export const AdminCompanyIdParamsSchema = Type.Object({ id: RecordIdSchema });

/** `GET /admin/companies`: searched, sorted (`sorting[sort_by]`, `sorting[sort]`) and paged. */
export const AdminCompaniesQuerySchema = Type.Object({
  search_phrase: Type.Optional(Type.String({ maxLength: 255, description: "part of any text field (or of `property`), any case" })),
  property: Type.Optional(Type.Union(companySearchColumns.map((c) => Type.Literal(c)), { description: "the one field search_phrase looks in" })),
  ...PageQuery,
  sorting: Type.Optional(
    Type.Object({
      sort_by: Type.Optional(Type.Union(companySortColumns.map((c) => Type.Literal(c)), { description: "id unless given" })),
      sort: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")], { description: "asc unless given" })),
    }),
  ),
});
export type AdminCompaniesQuery = Static<typeof AdminCompaniesQuerySchema>;

export const AdminCompaniesResponseSchema = LaravelPaginated(AdminCompanySchema);
export type AdminCompaniesResponse = Static<typeof AdminCompaniesResponseSchema>;

/** `GET /admin/companies/{id}` answers the record itself, as the vendor's example shows. */
export const AdminCompanyResponseSchema = AdminCompanySchema;
