import type { BusProducer, DeliveredMessage, OutgoingMessage, Rejected } from "@fleet/bus";
import type { LiveState, RawPosition, TailPoint } from "@fleet/contracts";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore, StateEntry } from "@fleet/live";
import { decodeBatch } from "./handlers/decode.js";
import type { DeviceDirectory, DeviceInfo } from "./handlers/device-directory.js";
import type { DriverRfid } from "./handlers/driver-rfid.js";
import { createFlushes, type Writers } from "./handlers/flushes.js";
import { FollowingPoints, olderThanTail } from "./handlers/following.js";
import { OwnedStates } from "./handlers/owned-states.js";
import { previousPoint } from "./handlers/previous.js";
import { isResent } from "./handlers/resent.js";
import { loadStates } from "./handlers/states.js";
import type { UnregisteredCounter } from "./handlers/unregistered.js";
import { runHandlers, type Enriched, type PositionHandler } from "./position/context.js";
import { distance } from "./position/distance.js";
import { enrichedMessage } from "./position/enriched-message.js";
import { engine } from "./position/engine.js";
import { historyRow } from "./position/history-row.js";
import { latest } from "./position/latest.js";
import { liveState } from "./position/live-state.js";
import { motion } from "./position/motion.js";
import { speed } from "./position/speed.js";

/**
 * The tracker's chain, Traccar-style. A partition's batch goes through these steps in
 * order; the batch steps work on the whole batch (one lookup, one write for many
 * positions), the position handlers on each position in turn, in the batch's order:
 *
 *   decode          messages → positions; the others go back for the dead-letter topic
 *   resolve devices uniqueId → device, from the directory
 *   load states     the devices' live states: kept, from the live store, or restored from history
 *   for each position:
 *     filter        a position of no registered device is counted as unregistered and dropped,
 *                   and one its device sent again (the same fix under another id) is dropped
 *     previous      the device's fix just before it in time: tail, batch, or history
 *     following     for a fix older than the whole tail, the fix just after it: batch or history
 *     POSITION_HANDLERS
 *   persist         history rows and live states to the shared flushes   ┐ at once; the batch
 *   publish         enriched positions to positions.enriched              │ is handled when
 *   switch drivers  by the RFIDs read                                     ┘ all three hold it
 *
 * `handle` below runs them; the position handlers are this list.
 */
export const POSITION_HANDLERS: readonly PositionHandler[] = [
  speed,
  latest,
  distance,
  // Before motion: whether a fix counts as moving asks the engine state (isMoving).
  engine,
  motion,
  liveState,
  historyRow,
  enrichedMessage,
];

/**
 * One position through the position handlers: its device, the device's live state before
 * it, and `prev`, the device's fix just before it in time. Deterministic, so a replayed
 * message writes the same history row again.
 */
export function enrichPosition(raw: RawPosition, device: DeviceInfo, current: LiveState | undefined, prev: TailPoint | undefined, next?: TailPoint | null): Enriched {
  return runHandlers(POSITION_HANDLERS, raw, device, current, prev, next);
}

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface PipelineDeps {
  directory: DeviceDirectory;
  unregistered: UnregisteredCounter;
  history: HistoryStore;
  live: LiveStore;
  /** Switches current drivers by RFID; absent, positions switch none (tests of the other steps). */
  driverRfid?: Pick<DriverRfid, "handle">;
  producer: BusProducer;
  logger: Logger;
  flushRows: number;
  flushMs: number;
  /** How long live states wait for other partitions' batches at most; min(flushMs, 10 ms) when absent. */
  liveLingerMs?: number;
  /** Most live states kept in memory between batches (OwnedStates); TRACKER_KEPT_STATES's default when absent. */
  keptStates?: number;
  enrichedTopic: string;
}

export interface Pipeline {
  /**
   * Handles one partition's messages in order; resolves once history, live state, the
   * enriched topic and RFID driver switches all hold them, with the messages that are not
   * positions (for the dead-letter topic). `isolated`: write this batch's history rows and
   * states on their own rather than in the flushes other partitions share, so a failure is this batch's.
   */
  handleBatch(messages: readonly DeliveredMessage[], opts?: { isolated?: boolean }): Promise<Rejected[]>;
  /** Writes what waits for a flush. */
  drain(): Promise<void>;
  /** `restored`: live states rebuilt from history for devices the live store had none for; `resent`: fixes a device sent again, dropped. */
  stats(): { positions: number; unregistered: number; invalid: number; restored: number; resent: number };
}

/** A device still without a state has no fix in history nor earlier in the batch: nothing comes before its position. */
const FIRST = { prev: undefined, known: true } as const;

export function createPipeline(deps: PipelineDeps): Pipeline {
  const counters = { positions: 0, unregistered: 0, invalid: 0, restored: 0, resent: 0 };
  const flushes = createFlushes(deps);
  const owned = new OwnedStates(deps.keptStates ?? 100_000);

  return {
    async handleBatch(messages, opts) {
      const first = messages[0];
      if (!first) return [];
      owned.begin(first.partition, first.offset);
      try {
        const { rejected, states } = await (opts?.isolated ? handle(messages, flushes.alone) : flushes.shared((write) => handle(messages, write)));
        owned.finish(first.partition, messages.at(-1)!.offset, states);
        return rejected;
      } catch (err) {
        owned.forget(first.partition);
        throw err;
      }
    },
    drain: () => flushes.drain(),
    stats: () => ({ ...counters }),
  };

  /** One batch through the chain; `states` are the devices' live states it wrote, for OwnedStates. */
  async function handle(messages: readonly DeliveredMessage[], write: Writers): Promise<{ rejected: Rejected[]; states: LiveState[] }> {
    const { raws, rejected } = decodeBatch(messages);
    counters.invalid += rejected.length;
    if (raws.length === 0) return { rejected, states: [] };

    const devices = await deps.directory.resolve(new Set(raws.map((r) => r.uniqueId)));
    const loaded = await loadStates({ owned, live: deps.live, history: deps.history }, messages[0]!.partition, devices.values());
    counters.restored += loaded.restored;

    const positions = await handlePositions(raws, devices, loaded.states);
    if (positions.length === 0) return { rejected, states: [] };

    const changed = latestStates(positions);
    const published = enrichedMessages(positions);
    await Promise.all([persist(positions, changed, write), deps.producer.send(deps.enrichedTopic, published), deps.driverRfid?.handle(positions.map((p) => p.enriched))]);
    counters.positions += positions.length;
    return { rejected, states: changed.map((c) => c.state) };
  }

  /**
   * Filter, previous point, and the position handlers, for each position in the batch's
   * order: each device's positions see the state the one before left (`states` is updated).
   */
  async function handlePositions(raws: readonly RawPosition[], devices: Map<string, DeviceInfo>, states: Map<number, LiveState>): Promise<Enriched[]> {
    const out: Enriched[] = [];
    const lastInBatch = new Map<number, TailPoint>();
    const following = new FollowingPoints(deps.history);
    for (const raw of raws) {
      const device = devices.get(raw.uniqueId);
      if (!device) {
        deps.unregistered.see(raw.uniqueId, raw.protocol, raw.serverTime);
        counters.unregistered++;
        continue;
      }
      const current = states.get(device.id);
      const found = current ? previousPoint(current.tail, lastInBatch.get(device.id), raw) : FIRST;
      // Only a replay, a resent buffer or a late fix older than the device's whole tail gets here: rare, so one query each is fine.
      const prev = found.known ? found.prev : await deps.history.previous(device.id, raw);
      if (isResent(prev, raw)) {
        counters.resent++;
        continue;
      }
      // Only a fix older than the device's whole tail (a buffer sent after its live fixes) asks more.
      const outside = current !== undefined && olderThanTail(current.tail, raw);
      const next = outside ? await following.after(device.id, current.tail, raw) : undefined;
      const position = enrichPosition(raw, device, current, prev, next);
      const point = { id: raw.id, fixTime: raw.fixTime, latitude: raw.latitude, longitude: raw.longitude };
      lastInBatch.set(device.id, point);
      following.add(device.id, point);
      states.set(device.id, position.state);
      out.push(position);
    }
    return out;
  }

  /** Persist: the batch's history rows and each device's last live state, to the flushes; `added` lets a shared flush go. */
  function persist(positions: readonly Enriched[], changed: StateEntry[], write: Writers): Promise<unknown> {
    const historyWritten = write.history(positions.map((p) => p.history));
    const statesWritten = write.states(changed);
    write.added();
    return Promise.all([historyWritten, statesWritten]);
  }
}

/** The positions.enriched messages, keyed by uniqueId like positions.raw, so the rules service sees each device's in order. */
function enrichedMessages(positions: readonly Enriched[]): OutgoingMessage[] {
  return positions.map((p) => ({ key: p.enriched.uniqueId, value: JSON.stringify(p.enriched) }));
}

/** Each device's live state after the batch, with the users who see it, in the order the batch first had the devices. */
function latestStates(positions: readonly Enriched[]): StateEntry[] {
  const byDevice = new Map<number, StateEntry>();
  for (const p of positions) byDevice.set(p.enriched.deviceId, { state: p.state, userIds: p.enriched.userIds });
  return [...byDevice.values()];
}
