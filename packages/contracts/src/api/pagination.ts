import { Type, type TSchema } from "@sinclair/typebox";

/** The spec's pagination wrapper around a page of records. */
export const Paginated = <T extends TSchema>(item: T) =>
  Type.Object({
    total: Type.Integer(),
    per_page: Type.Integer(),
    current_page: Type.Integer(),
    last_page: Type.Integer(),
    /** The first and last record's place in the whole list; 0 on an empty page (the spec and the Swagger type them integers). */
    from: Type.Integer(),
    to: Type.Integer(),
    next_page_url: Type.Union([Type.Null(), Type.String()]),
    prev_page_url: Type.Union([Type.Null(), Type.String()]),
    url: Type.String(),
    data: Type.Array(item),
  });

/** A link of a Laravel paginator's `links`: previous, each page (or "..." for the ones left out), next. */
const PageLinkSchema = Type.Object({ url: Type.Union([Type.Null(), Type.String()]), label: Type.String(), active: Type.Boolean() });

/** The vendor's Laravel paginator around a page of records, `links` and the first and last pages' urls included. */
export const LaravelPaginated = <T extends TSchema>(item: T) =>
  Type.Object({
    current_page: Type.Integer(),
    data: Type.Array(item),
    first_page_url: Type.String(),
    from: Type.Integer(),
    last_page: Type.Integer(),
    last_page_url: Type.String(),
    links: Type.Array(PageLinkSchema),
    next_page_url: Type.Union([Type.Null(), Type.String()]),
    path: Type.String(),
    per_page: Type.Integer(),
    prev_page_url: Type.Union([Type.Null(), Type.String()]),
    to: Type.Integer(),
    total: Type.Integer(),
  });

/** The most records a page of a list holds, whatever the request asks. */
export const MAX_PER_PAGE = 100;

/**
 * `page` (1-based) and the page size of paged list endpoints: `per_page`, or `limit` as the
 * vendor's Swagger names it ("Items per page"); one of the two, or both alike. Out of range
 * is a 422 naming the field; the page and the size are written as plain decimal integers
 * (the input rules refuse `1e3`, `0x10`, `1.0`, which AJV's coercion would read).
 */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: "10 unless given" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: "per_page as the vendor names it; give one of the two" })),
};

/**
 * The vendor's `pagination_compact`: the wrapper's page fields without `from`/`to`, beside
 * the records rather than around them (`{data, pagination}`).
 */
export const PaginationCompactSchema = Type.Object({
  total: Type.Integer(),
  per_page: Type.Integer(),
  current_page: Type.Integer(),
  last_page: Type.Integer(),
  next_page_url: Type.Union([Type.Null(), Type.String()]),
  prev_page_url: Type.Union([Type.Null(), Type.String()]),
  url: Type.String(),
});
