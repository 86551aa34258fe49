/**
 * Why the data refused a write, keyed by the caller's own input names (`groupId`,
 * `devices`, `pickupTimeTo`), never by a request's field names: the API decides those
 * (see apps/api/src/domain/refusals.ts). Nothing is written when one is thrown.
 */
export type Refusal =
  /** Names records the user does not have: missing, deleted and another user's look alike. `many` when the input is a list. */
  | { kind: "unknown"; many?: boolean }
  /** A value another live record already holds. */
  | { kind: "taken" }
  /** The account already holds as many as its plan allows. */
  | { kind: "limit"; limit: number }
  /** A time window that would end before it starts. */
  | { kind: "inverted" }
  /** The record would be left with nothing in it. */
  | { kind: "blank" }
  /** Given without what it belongs to (a note with no change to note). */
  | { kind: "unexpected" };

export class RefusedError extends Error {
  override readonly name = "RefusedError";
  constructor(readonly refusals: Readonly<Record<string, Refusal>>) {
    super(`Refused: ${Object.entries(refusals).map(([key, r]) => `${key} ${r.kind}`).join(", ")}`);
  }
}

/** Throws when any refusal was gathered; the usual end of a check that collects them all. */
export function assertNotRefused(refusals: Readonly<Record<string, Refusal>>): void {
  if (Object.keys(refusals).length > 0) throw new RefusedError(refusals);
}

/**
 * The constraint a unique violation (SQLSTATE 23505) hit, or undefined for any other error.
 * Drizzle wraps driver errors (DrizzleQueryError) and pg and PGlite shape them alike
 * (`code`, `constraint`), so this walks the `cause` chain looking for those fields.
 */
export function uniqueViolation(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505") return typeof constraint === "string" ? constraint : "";
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
