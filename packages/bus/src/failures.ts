/**
 * Which failures retrying cannot fix. A consumer dead-letters a message that fails this way
 * and moves on; anything else (a store unreachable, a timeout, a lock) is retried with
 * backoff, because the same message will go through once the store is back.
 */

/** Thrown by our own code for a message that is unusable as it is (it does not decode, it breaks a contract). */
export class PermanentError extends Error {
  override name = "PermanentError";
}

/**
 * SQLSTATE classes caused by the value itself: 22 data exception (NUL in text, bad
 * encoding, out of range), 23 integrity constraint violation, 54 program limit exceeded
 * (a value too large to index). Not 42 (undefined column, ...): during a rolling deploy
 * that is a migration not yet applied, which the next try may find applied.
 */
const PERMANENT_SQLSTATE_CLASSES = new Set(["22", "23", "54"]);

/**
 * ClickHouse error codes caused by the data sent: parse failures, type mismatches,
 * values out of range, oversized strings.
 */
const PERMANENT_CLICKHOUSE_CODES = new Set([6, 26, 27, 38, 41, 53, 69, 70, 72, 117, 130, 131, 321, 407]);

/** kafkajs protocol errors about the record itself, which the broker refuses whatever the retry. */
const PERMANENT_KAFKA_TYPES = new Set(["MESSAGE_TOO_LARGE", "RECORD_LIST_TOO_LARGE", "INVALID_RECORD"]);

/** The store's code of a failure, where it gave one: SQLSTATE, ClickHouse's number, kafkajs's type. */
export function failureCode(err: unknown): string | undefined {
  for (const e of causes(err)) {
    const sqlstate = sqlstateOf(e);
    if (sqlstate !== undefined) return sqlstate;
    const type = (e as { type?: unknown }).type;
    if (typeof type === "string" && PERMANENT_KAFKA_TYPES.has(type)) return type;
    const ch = clickhouseCode(e);
    if (ch !== undefined) return String(ch);
  }
  return undefined;
}

/** Whether retrying `err` can never succeed, looking through wrapped causes. */
export function isPermanentFailure(err: unknown): boolean {
  for (const e of causes(err)) {
    if (e instanceof PermanentError) return true;
    // Our own pure code on a value it cannot handle (rows.ts's range checks, a bad JSON shape).
    if (e instanceof RangeError || e instanceof TypeError || e instanceof SyntaxError) return true;
    const sqlstate = sqlstateOf(e);
    if (sqlstate !== undefined) return PERMANENT_SQLSTATE_CLASSES.has(sqlstate.slice(0, 2));
    const type = (e as { type?: unknown }).type;
    if (typeof type === "string" && PERMANENT_KAFKA_TYPES.has(type)) return true;
    const ch = clickhouseCode(e);
    if (ch !== undefined) return PERMANENT_CLICKHOUSE_CODES.has(ch);
  }
  return false;
}

/** `err` and what it wraps, outermost first (kafkajs and our bus wrap with `cause`). */
function* causes(err: unknown): Generator<Error> {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 6; depth++) {
    yield e;
    e = e.cause;
  }
}

/** A Postgres error's SQLSTATE (pg and PGlite both set `code` and `severity`; Node's EPIPE has no severity). */
function sqlstateOf(e: Error): string | undefined {
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && "severity" in e ? code : undefined;
}

/**
 * ClickHouse's error number: @clickhouse/client's ClickHouseError carries it as `code`
 * (a numeric string) with a `type`; chDB only in the message, "Code: 27. DB::Exception: ...".
 */
function clickhouseCode(e: Error): number | undefined {
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && /^\d+$/.test(code) && typeof (e as { type?: unknown }).type === "string") return Number(code);
  const m = /^Code: (\d+)\. DB::Exception/.exec(e.message);
  return m ? Number(m[1]) : undefined;
}
