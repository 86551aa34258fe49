import { InvalidInputError } from "@fleet/contracts";
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
 * The spec's pagination wrapper. Page links repeat the request's own URL (path and query,
 * api hash included, as the vendor's do) with `page` replaced, so a client can follow them.
 */
export function paginate<T>(req: Pick<FastifyRequest, "url">, p: PageRequest, total: number, data: T[]) {
  const lastPage = Math.max(1, Math.ceil(total / p.perPage));
  const url = new URL(req.url, "http://placeholder");
  const link = (page: number) => {
    url.searchParams.set("page", String(page));
    return `${url.pathname}${url.search}`;
  };
  const from = data.length > 0 ? (p.page - 1) * p.perPage + 1 : null;
  return {
    total,
    per_page: p.perPage,
    current_page: p.page,
    last_page: lastPage,
    from,
    to: from === null ? null : from + data.length - 1,
    next_page_url: p.page < lastPage ? link(p.page + 1) : null,
    prev_page_url: p.page > 1 ? link(Math.min(p.page - 1, lastPage)) : null,
    url: new URL(req.url, "http://placeholder").pathname,
    data,
  };
}
