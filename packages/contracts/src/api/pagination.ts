import { Type, type TSchema } from "@sinclair/typebox";

/** The spec's pagination wrapper around a page of records. */
export const Paginated = <T extends TSchema>(item: T) =>
  Type.Object({
    total: Type.Integer(),
    per_page: Type.Integer(),
    current_page: Type.Integer(),
    last_page: Type.Integer(),
    from: Type.Union([Type.Null(), Type.Integer()]),
    to: Type.Union([Type.Null(), Type.Integer()]),
    next_page_url: Type.Union([Type.Null(), Type.String()]),
    prev_page_url: Type.Union([Type.Null(), Type.String()]),
    url: Type.String(),
    data: Type.Array(item),
  });

/** `page` (1-based) and `per_page` of paged list endpoints. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "10 unless given" })),
};
