import { Readable } from "node:stream";
import { parseRange, userUnits, type ExportHistoryQuery, type HistoryRow } from "@fleet/contracts";
import { findUserDevice, type Db, type User } from "@fleet/db";
import type { HistoryStore, PositionRange } from "@fleet/history";
import type { FastifyReply } from "fastify";
import { clockOf } from "../lib/clock.js";
import { TRACK_WRITERS, type TrackMeta } from "../lib/history-files.js";
import { stepsByRow } from "@fleet/trips";
import { STEP_CONTEXT } from "../lib/track-steps.js";
import { localTimes } from "../lib/local-times.js";
import { found } from "./found.js";

/*
 * export_history (beyond the vendor's API, what Traccar users export): a device's positions in
 * a period as a GPX, KML or CSV attachment, read and written a chunk at a time.
 */

export interface HistoryExportDeps {
  db: Db;
  history: Pick<HistoryStore, "query">;
}

/** Rows per read: a few MB of file at a time, whatever the period's length. */
export const EXPORT_CHUNK_ROWS = 5000;
const HOUR = 3_600_000;

/**
 * The range's rows in time order, a chunk at a time. Each read is bounded at both ends by
 * the primary key, so the thousandth chunk costs what the first did: FINAL merges only the
 * window read, not the rest of the range. Windows start at an hour and double while one
 * holds less than a chunk (a parked vehicle reports rarely); a window holding more is read
 * a chunk at a time from the last fix time given, past the rows of that time already given.
 */
export async function* rangeChunks(history: HistoryExportDeps["history"], range: PositionRange, chunk = EXPORT_CHUNK_ROWS): AsyncGenerator<HistoryRow[]> {
  let span = HOUR;
  let fromMs = range.fromMs;
  let toMs = Math.min(range.toMs, fromMs + span - 1);
  let skip = 0;
  let windowRows = 0;
  for (;;) {
    const rows = await history.query({ ...range, fromMs, toMs, offset: skip, limit: chunk });
    if (rows.length > 0) yield rows;
    windowRows += rows.length;
    if (rows.length === chunk) {
      const last = rows.at(-1)!.fixTime;
      const atLast = rows.reduce((n, r) => n + (r.fixTime === last ? 1 : 0), 0);
      skip = last === fromMs ? skip + atLast : atLast;
      fromMs = last;
      continue;
    }
    if (toMs >= range.toMs) return;
    if (windowRows < chunk) span *= 2;
    fromMs = toMs + 1;
    toMs = Math.min(range.toMs, fromMs + span - 1);
    skip = 0;
    windowRows = 0;
  }
}

/** `device-12_2025-03-30_2025-03-31.gpx`: ASCII only, so every browser saves it under that name. */
function fileName(deviceId: number, query: ExportHistoryQuery, extension: string): string {
  return `device-${deviceId}_${query.from_date}_${query.to_date}.${extension}`;
}

/**
 * Checks the request (a 422 or 404 before anything is sent), reads the first chunk (so a
 * store that is down is a failure answer, not a cut-off file), then streams the rest.
 */
export async function exportHistory(deps: HistoryExportDeps, user: User, query: ExportHistoryQuery, reply: FastifyReply): Promise<Readable> {
  const clock = clockOf(user);
  const range = parseRange(clock, query);
  const device = await found(findUserDevice(deps.db, user.id, query.device_id), "Device");
  const writer = TRACK_WRITERS[query.format];
  const meta: TrackMeta = {
    deviceName: device.name,
    period: `${query.from_date} ${query.from_time} – ${query.to_date} ${query.to_time}`,
    units: userUnits(user),
    localTime: localTimes(clock),
  };
  const chunks = rangeChunks(deps.history, { deviceId: device.id, ...range });
  const first = await chunks.next();
  async function* file() {
    yield writer.head(meta);
    // Each chunk's last rows wait for the next chunk, and the rows written last stay at hand,
    // so every row's step is measured with the rows either side of it (track-steps.ts).
    let written: HistoryRow[] = [];
    let waiting: HistoryRow[] = [];
    const write = (rows: HistoryRow[], last: boolean) => {
      const all = [...waiting, ...rows];
      const now = last ? all : all.slice(0, Math.max(0, all.length - STEP_CONTEXT));
      waiting = all.slice(now.length);
      if (now.length === 0) return "";
      const steps = stepsByRow([...written, ...now, ...waiting]);
      const text = writer.rows(meta, now, written.at(-1), (r) => steps.get(r.id) ?? 0);
      written = [...written, ...now].slice(-STEP_CONTEXT);
      return text;
    };
    if (!first.done) yield write(first.value, false);
    for await (const rows of chunks) yield write(rows, false);
    yield write([], true);
    yield writer.tail(meta);
  }
  reply.header("content-type", writer.contentType);
  reply.header("content-disposition", `attachment; filename="${fileName(device.id, query, writer.extension)}"`);
  return Readable.from(file(), { objectMode: false });
}
