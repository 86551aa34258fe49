/**
 * Whether `id` can be a row id: a positive int4 (serial). Larger values cannot exist and
 * Postgres refuses to compare them with an int4 column, so callers answer "not found"
 * without asking the database.
 */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;
}
