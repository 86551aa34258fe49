import type { HistoryRow, LiveState } from "@fleet/contracts";
import type { RestoreDevice } from "./last-states.js";
import type { MinuteCount, PositionRange } from "./pages.js";
import type { TrackTotals, TrackTotalsQuery } from "./track-totals.js";

export interface HistoryQuery {
  deviceId: number;
  fromMs: number;
  toMs: number;
  limit?: number;
  offset?: number;
}

/** A stored position whose texts (attributes, unique id, protocol) are decoded only when read. */
export interface StoredRow extends HistoryRow {
  /** The attributes as stored: JSON.stringify of them. */
  readonly attributesText: string;
  /** Whether the attributes' text holds `text`: found without decoding it, for a check made on every row. */
  attributesHold(text: string): boolean;
}

/** A stored position with the vendor's position fields the row alone decides, as JSON members. */
export interface PositionWithFields extends StoredRow {
  /** UTF-8 JSON, an object's opening brace and members (`{"id":…,"device_id":…,…`): see positions-with-fields.ts. */
  readonly fields: Uint8Array;
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
  /** The rows `query` gives for the range (no paging), each with its vendor fields made by the engine. */
  queryWithFields(q: Omit<HistoryQuery, "limit" | "offset">): Promise<PositionWithFields[]>;
  /**
   * The rows `query` gives for the range (no paging), their texts decoded when read: what a
   * report cuts a track from, without the vendor fields it never shows (half the engine's work).
   */
  queryRows(q: Omit<HistoryQuery, "limit" | "offset">): Promise<StoredRow[]>;
  /**
   * Each device's track totals over the range, cut as @fleet/trips' segmentTrack cuts it, worked
   * out by the engine (see track-totals.ts); devices without a fix there are absent.
   */
  trackTotals(q: TrackTotalsQuery): Promise<Map<number, TrackTotals>>;
  count(filter?: { deviceId?: number; fromMs?: number; toMs?: number }): Promise<number>;
  /** The device's row just before `(fixTime, id)` in time order, if any. */
  previous(deviceId: number, before: { fixTime: number; id: number }): Promise<HistoryRow | undefined>;
  /** The device's first row at or after `(fixTime, id)` in time order, if any: that position itself when it is stored. */
  following(deviceId: number, at: { fixTime: number; id: number }): Promise<HistoryRow | undefined>;
  /**
   * The live state each device would have if the tracker had kept it (latest position, GPS
   * odometer as the sum of stored distances, engine time, a tail): for a live store that lost
   * it. Devices with no stored position are absent. Reads the devices' whole history.
   */
  lastStates(devices: readonly RestoreDevice[]): Promise<Map<number, LiveState>>;
  /**
   * Each device's latest stored fix time (epoch ms), devices without one absent. Reads two
   * sort-key columns: what tells whether a device's lastStates (its whole history) is needed.
   */
  latestFixTimes(deviceIds: readonly number[]): Promise<Map<number, number>>;
  /** Rows per minute of a range, each row once, for the non-empty minutes in time order: the pager's index. */
  minuteCounts(range: PositionRange): Promise<MinuteCount[]>;
  /** Rows stored in a range before replays collapse: cheap, and changes with every insert, delete and merge there. */
  storedCount(range: PositionRange): Promise<number>;
  /** Deletes the given position ids of the given devices; returns nothing. */
  deletePositions(deviceIds: readonly number[], ids: readonly number[]): Promise<void>;
  close(): Promise<void>;
}
