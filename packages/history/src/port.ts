import type { HistoryRow } from "@fleet/contracts";

export interface HistoryQuery {
  deviceId: number;
  fromMs: number;
  toMs: number;
  limit?: number;
  offset?: number;
}

/**
 * The history port: append-mostly position history. ClickHouse in production (via
 * @clickhouse/client), chDB in process when CLICKHOUSE_URL is unset. Writes are
 * idempotent: inserting a row whose (deviceId, fixTime, id) already exists leaves
 * every read unchanged.
 */
export interface HistoryStore {
  readonly kind: "clickhouse" | "chdb";
  /** Applies the numbered SQL migrations not yet applied. */
  migrate(): Promise<void>;
  insert(rows: readonly HistoryRow[]): Promise<void>;
  /** Rows of one device in [fromMs, toMs], ordered by fixTime then id. */
  query(q: HistoryQuery): Promise<HistoryRow[]>;
  count(filter?: { deviceId?: number; fromMs?: number; toMs?: number }): Promise<number>;
  /** The device's row just before `(fixTime, id)` in time order, if any. */
  previous(deviceId: number, before: { fixTime: number; id: number }): Promise<HistoryRow | undefined>;
  /** Deletes the given position ids of the given devices; returns nothing. */
  deletePositions(deviceIds: readonly number[], ids: readonly number[]): Promise<void>;
  close(): Promise<void>;
}
