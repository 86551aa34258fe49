import type { HistoryRow, LiveState, RawPosition } from "@fleet/contracts";
import type { HistoryStore } from "@fleet/history";
import { Track } from "@fleet/tracks";
import { enrichPosition, previousPoint } from "@fleet/tracker";
import type { Account } from "../live/seed.js";
import { fmt } from "../live/stats.js";
import type { Layout } from "./layout.js";

/** Position ids as ingest mints them: ms since 2025-01-01 × 8192, then a sequence. */
const ID_EPOCH = Date.UTC(2025, 0, 1);
const ID_SEQ = 8192;

/** The device setting the tracker reads to tell motion (km/h); add_device's usual value. */
export const MIN_MOVING_SPEED = 6;

export interface SeedResult {
  rows: number;
  seconds: number;
}

/**
 * Writes the layout's positions straight to the history store, each device's as the track
 * model sends them (gaps, repeats, late fixes and all) and as the tracker would have stored
 * them: `enrichPosition` gives speed in km/h, the distance from the fix before in time and the
 * engine state, exactly as the pipeline computes them. Devices are written one after the other
 * in batches of `batch` rows, one insert in flight while the next batch is made.
 */
export async function seedHistory(history: HistoryStore, owner: Account, layout: Layout, opts: { seed: number; batch: number; log(line: string): void }): Promise<SeedResult> {
  const total = layout.devices.reduce((n, d) => n + d.count, 0);
  const started = Date.now();
  let written = 0;
  let made = 0;
  let nextId = Math.max(1, (layout.devices.reduce((t, d) => Math.min(t, d.startTime), Infinity) - ID_EPOCH) * ID_SEQ);
  let batch: HistoryRow[] = [];
  let inFlight: Promise<void> | undefined;
  let lastLog = Date.now();

  const flush = async () => {
    const rows = batch;
    batch = [];
    await inFlight;
    inFlight = history.insert(rows).then(() => {
      written += rows.length;
    });
    if (Date.now() - lastLog >= 5000) {
      lastLog = Date.now();
      const s = (Date.now() - started) / 1000;
      opts.log(`  seeded ${fmt(written)} of ${fmt(total)} positions (${fmt((100 * written) / total)}%), ${fmt(written / s)}/s, ${fmt(s)} s so far`);
    }
  };

  for (const share of layout.devices) {
    const deviceId = owner.deviceIds[share.index]!;
    const imei = owner.imeis[share.index]!;
    const device = { id: deviceId, imei, userIds: [owner.userId], minMovingSpeed: MIN_MOVING_SPEED };
    const track = new Track({
      seed: opts.seed * 1_000_003 + share.index,
      uniqueId: imei,
      startTime: share.startTime,
      intervalMs: layout.intervalMs,
      parkedIntervalMs: layout.intervalMs,
      // The measured device starts with a drive; the others somewhere in a parking spell.
      startParked: share.index !== 0,
    });
    let current: LiveState | undefined;
    for (let k = 0; k < share.count; k++) {
      const { sentAt, position } = track.next();
      // A new object: a repeated position is the same object as the one sent first.
      const raw: RawPosition = { ...position, id: nextId++, serverTime: sentAt };
      const { prev } = previousPoint(current?.tail ?? [], undefined, raw);
      const out = enrichPosition(raw, device, current, prev);
      current = out.state;
      batch.push(out.history);
      made++;
      if (batch.length >= opts.batch) await flush();
    }
  }
  if (batch.length > 0) await flush();
  await inFlight;
  if (made !== written) throw new Error(`made ${made} rows but wrote ${written}`);
  return { rows: written, seconds: (Date.now() - started) / 1000 };
}
