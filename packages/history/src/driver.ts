/** Values for `{name:Type}` placeholders, bound by the engine (never spliced into SQL). */
export type QueryParams = Record<string, string | number | boolean | readonly number[]>;

/**
 * What the history store needs from an engine: the narrow surface both chDB's
 * Session and @clickhouse/client provide. SQL is shared; only transport differs.
 */
export interface HistoryDriver {
  readonly kind: "clickhouse" | "chdb";
  /** Runs a statement that returns no rows (DDL, DELETE). */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** Runs a SELECT and returns its JSONEachRow rows, parsed. */
  select<T>(sql: string, params?: QueryParams): Promise<T[]>;
  /**
   * Runs a SELECT of one String column whose every value is a JSON text, and returns those
   * values parsed: the engine writes them as one JSON array (JSON_ARRAY_SETTINGS), read
   * with a single JSON.parse.
   */
  selectJson<T>(sql: string, params?: QueryParams): Promise<T[]>;
  /** Runs a SELECT and returns its rows in RowBinary (see row-binary.ts), as the engine wrote them. */
  selectRowBinary(sql: string, params?: QueryParams): Promise<Uint8Array>;
  /**
   * One INSERT ... FORMAT JSONCompactEachRow for the whole batch: each row an array of
   * values in `columns` order (no key names to write and parse per row).
   */
  insertRows(table: string, columns: readonly [string, ...string[]], rows: readonly (readonly unknown[])[]): Promise<void>;
  close(): Promise<void>;
}

/** CustomSeparated output that is one JSON array of the rows' (raw) text: `[row,row,...]`. */
export const JSON_ARRAY_SETTINGS = {
  format_custom_escaping_rule: "Raw",
  format_custom_field_delimiter: "",
  format_custom_row_before_delimiter: "",
  format_custom_row_after_delimiter: "",
  format_custom_row_between_delimiter: ",",
  format_custom_result_before_delimiter: "[",
  format_custom_result_after_delimiter: "]",
} as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The database name is configuration, not user input, and identifiers cannot be
 * bound parameters on every server version, so it is checked here and then used
 * verbatim to qualify table names.
 */
export function checkDatabaseName(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`invalid ClickHouse database name ${JSON.stringify(name)}: use [A-Za-z_][A-Za-z0-9_]*`);
  return name;
}
