import { COMPANIES_PER_PAGE, type AdminCompaniesQuery, type AdminCompaniesResponse, type AdminCompany, type AdminCompanyBody, type AdminCompanyUpdateBody, type UserClock } from "@fleet/contracts";
import { createCompany, destroyCompany, findCompany, pageCompanies, updateCompany, type Company, type CompanyInput, type Db, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { pageRequest, pageWindow, paginateLaravel } from "../lib/pagination.js";
import { found } from "./found.js";

/*
 * The vendor's admin companies: platform-wide records (no user owns one) that only
 * administrators list, read and write; the routes' hook refuses anyone else. A company
 * remembers the administrator who created it. Nothing refers to a company, so deleting one
 * removes that row only.
 */

const WHAT = "Company";

export function record(c: Company, clock: UserClock): AdminCompany {
  return {
    id: c.id,
    name: c.name,
    vat_number: c.vatNumber,
    registration_code: c.registrationCode,
    address: c.address,
    comment: c.comment,
    created_at: clock.format(c.createdAt.getTime()),
    updated_at: clock.format(c.updatedAt.getTime()),
    // The Swagger types it as an integer: left out, not null, once the creator's account is gone.
    ...(c.userId === null ? {} : { user_id: c.userId }),
  };
}

/** The body's fields that are present, trimmed, as columns. */
function patchOf(b: AdminCompanyUpdateBody): Partial<CompanyInput> {
  return { name: b.name?.trim(), vatNumber: b.vat_number?.trim(), registrationCode: b.registration_code?.trim(), address: b.address?.trim(), comment: b.comment?.trim() };
}

/** A page of the companies in the vendor's (Laravel's) paginator; `url` is the request's, for the page links. */
export async function list(db: Db, admin: User, query: AdminCompaniesQuery, url: string): Promise<AdminCompaniesResponse> {
  const page = pageRequest(query, COMPANIES_PER_PAGE);
  const search = query.search_phrase === undefined ? undefined : { text: query.search_phrase, column: query.property };
  const { total, rows } = await pageCompanies(db, { search, sortBy: query.sorting?.sort_by ?? "id", sort: query.sorting?.sort ?? "asc", ...pageWindow(page) });
  return paginateLaravel({ url }, page, total, rows.map((c) => record(c, clockOf(admin))));
}

export const get = async (db: Db, admin: User, id: number) => record(await found(findCompany(db, id), WHAT), clockOf(admin));

/** Stores a company made by `admin`; its id, so a client can open it without listing. */
export async function create(db: Db, admin: User, body: AdminCompanyBody) {
  const patch = patchOf(body);
  const company = await createCompany(db, admin.id, { name: patch.name!, vatNumber: patch.vatNumber ?? "", registrationCode: patch.registrationCode ?? "", address: patch.address ?? "", comment: patch.comment ?? "" });
  return { status: 1 as const, id: company.id };
}

/** Fields left out keep their values. */
export async function update(db: Db, id: number, body: AdminCompanyUpdateBody) {
  await found(updateCompany(db, id, patchOf(body)), WHAT);
  return { status: 1 as const };
}

export async function destroy(db: Db, id: number) {
  await found(destroyCompany(db, id), WHAT);
  return { status: 1 as const };
}
