/**
 * Typed failures the query functions promise, so the API can map each to the spec's
 * `{status: 0, errors: {field: ...}}` body without parsing database messages.
 */
export class DuplicateEmailError extends Error {
  override readonly name = "DuplicateEmailError";
  readonly field = "email";
  constructor(readonly email: string) {
    super(`A user with email ${email} already exists`);
  }
}

export class DuplicateImeiError extends Error {
  override readonly name = "DuplicateImeiError";
  readonly field = "imei";
  constructor(readonly imei: string) {
    super(`A device with IMEI ${imei} already exists`);
  }
}

/** A device group id that does not exist or belongs to another user (the two look alike). */
export class UnknownDeviceGroupError extends Error {
  override readonly name = "UnknownDeviceGroupError";
  readonly field = "group_id";
  constructor(readonly groupId: number) {
    super(`Device group ${groupId} not found`);
  }
}

/** The account already holds as many devices as its devices_limit allows. */
export class DevicesLimitError extends Error {
  override readonly name = "DevicesLimitError";
  readonly field = "imei";
  constructor(readonly limit: number) {
    super(`The account may hold at most ${limit} devices`);
  }
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
