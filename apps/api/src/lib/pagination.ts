import { InvalidInputError } from "@fleet/contracts";
import { SECRET_PARAMS } from "@fleet/logging";
import type { FastifyRequest } from "fastify";

export interface PageRequest {
  page: number;
  perPage: number;
}

/**
 * The page a list request asks for: `page` (default 1) and its size, `per_page` or the
 * vendor's `limit` (default `defaultPerPage`). Both given, they must agree: a 422 rather
 * than a silent pick of one.
 */
export function pageRequest(query: { page?: number; per_page?: number; limit?: number }, defaultPerPage = 10): PageRequest {
  if (query.per_page !== undefined && query.limit !== undefined && query.per_page !== query.limit) {
    throw new InvalidInputError({ limit: "The limit and the per page differ: give one of them." });
  }
  return { page: query.page ?? 1, perPage: query.per_page ?? query.limit ?? defaultPerPage };
}

/** `limit`/`offset` for the page. */
export function pageWindow(p: PageRequest): { limit: number; offset: number } {
  return { limit: p.perPage, offset: (p.page - 1) * p.perPage };
}

/**
 * The request's own url (path and query) asking for page `n`, without its credentials (the
 * api hash, a token): a link in a body is logged and shared where the hash must not go, and
 * the vendor's links carry none, so its clients sign the links they follow themselves.
 */
export function pageLink(requestUrl: string, n: number): string {
  const url = new URL(requestUrl, "http://placeholder");
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAMS.has(name.replace(/\[.*$/, "").toLowerCase())) url.searchParams.delete(name);
  url.searchParams.set("page", String(n));
  return `${url.pathname}${url.search}`;
}

/**
 * The spec's pagination wrapper. Page links repeat the request's own URL with `page`
 * replaced (pageLink), so a client can follow them. An empty page's `from` and `to` are 0
 * where Laravel's paginator writes null: the spec and the Swagger type them integers, and
 * a client generated from the Swagger could not read a null.
 */
export function paginate<T>(req: Pick<FastifyRequest, "url">, p: PageRequest, total: number, data: T[]) {
  const lastPage = Math.max(1, Math.ceil(total / p.perPage));
  const from = data.length > 0 ? (p.page - 1) * p.perPage + 1 : 0;
  return {
    total,
    per_page: p.perPage,
    current_page: p.page,
    last_page: lastPage,
    from,
    to: data.length > 0 ? from + data.length - 1 : 0,
    next_page_url: p.page < lastPage ? pageLink(req.url, p.page + 1) : null,
    prev_page_url: p.page > 1 ? pageLink(req.url, Math.min(p.page - 1, lastPage)) : null,
    url: new URL(req.url, "http://placeholder").pathname,
    data,
  };
}

/** The vendor's `pagination_compact` beside the records, `{data, pagination}`: paginate() without `from`/`to`. */
export function paginateCompact<T>(req: Pick<FastifyRequest, "url">, p: PageRequest, total: number, data: T[]) {
  const { data: records, from: _from, to: _to, ...pagination } = paginate(req, p, total, data);
  return { data: records, pagination };
}

/** Laravel's links on each side of the current page, when there are too many to list them all. */
const ON_EACH_SIDE = 3;
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * The page numbers a Laravel paginator links, "..." where it leaves pages out (its
 * UrlWindow): every page while there are few, else the first two, the current page with
 * three on each side and the last two, the window pushed against whichever end is near.
 */
export function pageNumbers(current: number, last: number): (number | "...")[] {
  if (last < ON_EACH_SIDE * 2 + 8) return range(1, last);
  const window = ON_EACH_SIDE + 4;
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), "...", last - 1, last];
  if (current > last - window) return [1, 2, "...", ...range(last - (window + ON_EACH_SIDE - 1), last)];
  return [1, 2, "...", ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), "...", last - 1, last];
}

/** A page in Laravel's LengthAwarePaginator shape, as the vendor's admin lists answer: paginate()'s fields, its `url` as `path`, and the page links. */
export function paginateLaravel<T>(req: Pick<FastifyRequest, "url">, p: PageRequest, total: number, data: T[]) {
  const page = paginate(req, p, total, data);
  const links = [
    { url: page.prev_page_url, label: "&laquo; Previous", active: false },
    ...pageNumbers(page.current_page, page.last_page).map((n) => (n === "..." ? { url: null, label: n, active: false } : { url: pageLink(req.url, n), label: String(n), active: n === page.current_page })),
    { url: page.next_page_url, label: "Next &raquo;", active: false },
  ];
  return {
    current_page: page.current_page,
    data: page.data,
    first_page_url: pageLink(req.url, 1),
    from: page.from,
    last_page: page.last_page,
    last_page_url: pageLink(req.url, page.last_page),
    links,
    next_page_url: page.next_page_url,
    path: page.url,
    per_page: page.per_page,
    prev_page_url: page.prev_page_url,
    to: page.to,
    total: page.total,
  };
}
