import type { CompanySearchColumn, CompanySortColumn } from "@fleet/contracts";
import { asc, count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Queryable } from "../client.js";
import type { Page } from "../owned.js";
import { isRowId } from "../row-id.js";
import { companies, type Company } from "../schema/companies.js";
import { containing } from "../like.js";

/*
 * The vendor's admin companies: platform-wide records, not any user's, so nothing here is
 * scoped by an owner (the API lets only administrators in).
 */

/** A company's writable fields, already checked; on update, undefined keeps the stored value. */
export interface CompanyInput {
  name: string;
  vatNumber: string;
  registrationCode: string;
  address: string;
  comment: string;
}

/** The text columns a search looks in, by the request's names (`property` narrows it to one). */
const searchable: Record<CompanySearchColumn, PgColumn> = {
  name: companies.name,
  vat_number: companies.vatNumber,
  registration_code: companies.registrationCode,
  address: companies.address,
  comment: companies.comment,
};

export interface CompanyPage extends Page {
  /** Part of the text to look for, any case; LIKE wildcards in it match themselves. */
  search?: { text: string; column?: CompanySearchColumn };
  sortBy: CompanySortColumn;
  sort: "asc" | "desc";
}

function sortColumn(by: CompanySortColumn): SQL | PgColumn {
  switch (by) {
    case "id":
      return companies.id;
    case "created_at":
      return companies.createdAt;
    case "updated_at":
      return companies.updatedAt;
    default:
      // Text sorts by lower case: the same order under any collation (PGlite's is C).
      return sql`lower(${searchable[by]})`;
  }
}

/** One page of the companies, searched and sorted, and how many match in all. */
export async function pageCompanies(db: Queryable, page: CompanyPage): Promise<{ total: number; rows: Company[] }> {
  const text = page.search?.text.trim();
  let where: SQL | undefined;
  if (text) {
    const column = page.search?.column;
    const columns = column ? [searchable[column]] : Object.values(searchable);
    where = or(...columns.map((c) => ilike(c, containing(text))));
  }
  const direction = page.sort === "desc" ? desc : asc;
  const [rows, [counted]] = await Promise.all([
    // id breaks ties, so pages do not overlap.
    db.select().from(companies).where(where).orderBy(direction(sortColumn(page.sortBy)), direction(companies.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(companies).where(where),
  ]);
  return { total: counted?.n ?? 0, rows };
}

/** The company, or undefined when there is none with that id. */
export async function findCompany(db: Queryable, id: number): Promise<Company | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  return row;
}

/** Stores a company; `userId` is the administrator who creates it. */
export async function createCompany(db: Queryable, userId: number | null, input: CompanyInput): Promise<Company> {
  const [row] = await db
    .insert(companies)
    .values({ ...input, userId })
    .returning();
  return row!;
}

/** Sets the given fields of the company; undefined when there is none with that id. */
export async function updateCompany(db: Queryable, id: number, patch: Partial<CompanyInput>): Promise<Company | undefined> {
  if (!isRowId(id)) return undefined;
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<CompanyInput>;
  if (Object.keys(defined).length === 0) return findCompany(db, id);
  const [row] = await db.update(companies).set(defined).where(eq(companies.id, id)).returning();
  return row;
}

/** Deletes the company; false when there is none with that id. */
export async function destroyCompany(db: Queryable, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const gone = await db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
  return gone.length > 0;
}
