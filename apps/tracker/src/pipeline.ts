import { TypeCompiler } from "@sinclair/typebox/compiler";
import { createBatcher } from "@fleet/batcher";
import { PermanentError, type BusProducer, type DeliveredMessage, type OutgoingMessage, type Rejected } from "@fleet/bus";
import { RawPositionSchema, type EnrichedPosition, type HistoryRow, type LiveState, type RawPosition, type TailPoint } from "@fleet/contracts";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore, StateEntry } from "@fleet/live";
import type { DeviceDirectory, DeviceInfo } from "./handlers/device-directory.js";
import type { DriverRfid } from "./handlers/driver-rfid.js";
import { enrichPosition, previousPoint } from "./handlers/enrich.js";
import { OwnedStates } from "./handlers/owned-states.js";
import type { UnregisteredCounter } from "./handlers/unregistered.js";

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
  /** `restored`: live states rebuilt from history for devices the live store had none for. */
  stats(): { positions: number; unregistered: number; invalid: number; restored: number };
}

/** Where a batch's history rows and live states go, and the signal that it has added both. */
interface Writers {
  history(rows: HistoryRow[]): Promise<void>;
  states(entries: StateEntry[]): Promise<void>;
  added(): void;
}

const RawPositionCheck = TypeCompiler.Compile(RawPositionSchema);

/**
 * The longest live states wait for other partitions' batches by default: a client sees a
 * position when its state is written, so states do not wait as long as history rows do
 * for a big insert.
 */
const LIVE_LINGER_MS = 10;

/** The position a message carries, or why it carries none. */
function decode(m: DeliveredMessage): RawPosition | PermanentError {
  let v: unknown;
  try {
    v = JSON.parse(m.value.toString("utf8"));
  } catch (err) {
    return new PermanentError(`not JSON: ${(err as Error).message}`);
  }
  if (RawPositionCheck.Check(v)) return v;
  const first = RawPositionCheck.Errors(v).First();
  return new PermanentError(first ? `not a position: ${first.path || "/"} ${first.message}` : "not a position");
}

/**
 * The tracker's chain: decode → resolve device → enrich (units, distance, live state)
 * → persist. History rows and live states from every partition share flushes, so the
 * history store sees few large inserts and the live store few scripts (each user's
 * indexes are stamped once per script): a flush goes out when every batch in hand has
 * added its rows and states (the bus fetches again only once they are all handled, so
 * waiting longer would only stall it), at flushRows, or after flushMs at the latest.
 * Partitions never share a device, so one flush never holds two states of one.
 */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const counters = { positions: 0, unregistered: 0, invalid: 0, restored: 0 };
  const historyBatcher = createBatcher<HistoryRow>({
    maxItems: deps.flushRows,
    lingerMs: deps.flushMs,
    maxConcurrent: 2,
    flush: (rows) => deps.history.insert(rows),
  });
  const liveBatcher = createBatcher<StateEntry>({
    maxItems: deps.flushRows,
    lingerMs: deps.liveLingerMs ?? Math.min(deps.flushMs, LIVE_LINGER_MS),
    maxConcurrent: 2,
    flush: (entries) => deps.live.putStates(entries),
  });
  const alone: Writers = { history: (rows) => deps.history.insert(rows), states: (entries) => deps.live.putStates(entries), added: () => undefined };

  const owned = new OwnedStates(deps.keptStates ?? 100_000);
  let preparing = 0;

  return {
    async handleBatch(messages, opts) {
      const first = messages[0];
      if (!first) return [];
      owned.begin(first.partition, first.offset);
      try {
        const { rejected, states } = await (opts?.isolated ? handle(messages, alone) : shared(messages));
        owned.finish(first.partition, messages.at(-1)!.offset, states);
        return rejected;
      } catch (err) {
        owned.forget(first.partition);
        throw err;
      }
    },
    drain: async () => {
      await Promise.all([historyBatcher.drain(), liveBatcher.drain()]);
    },
    stats: () => ({ ...counters }),
  };

  /** One batch whose history rows and live states go out in the flushes other partitions share. */
  async function shared(messages: readonly DeliveredMessage[]) {
    preparing++;
    let done = false;
    const added = () => {
      if (done) return;
      done = true;
      if (--preparing > 0) return;
      historyBatcher.flush();
      liveBatcher.flush();
    };
    try {
      return await handle(messages, { history: (rows) => historyBatcher.add(rows), states: (entries) => liveBatcher.add(entries), added });
    } finally {
      added();
    }
  }

  /** The devices' states: the ones this tracker kept, the rest from the live store. */
  async function statesOf(partition: number, deviceIds: number[]): Promise<Map<number, LiveState>> {
    const states = owned.get(partition, deviceIds);
    const missing = deviceIds.filter((id) => !states.has(id));
    if (missing.length > 0) for (const [id, state] of await deps.live.getStates(missing)) states.set(id, state);
    return states;
  }

  /**
   * A device without a live state is new, or its state was lost (a flushed Redis, a lost
   * live.json): its state is restored from history before its position is handled, so the
   * odometer and engine time continue rather than restart from zero.
   */
  async function restoreMissing(states: Map<number, LiveState>, devices: Iterable<DeviceInfo>): Promise<void> {
    const missing = new Map<number, DeviceInfo>();
    for (const d of devices) if (!states.has(d.id)) missing.set(d.id, d);
    if (missing.size === 0) return;
    const restored = await deps.history.lastStates([...missing.values()].map((d) => ({ id: d.id, minMovingSpeed: d.minMovingSpeed })));
    for (const [id, state] of restored) states.set(id, state);
    counters.restored += restored.size;
  }

  async function handle(messages: readonly DeliveredMessage[], write: Writers): Promise<{ rejected: Rejected[]; states: LiveState[] }> {
    const raws: RawPosition[] = [];
    const rejected: Rejected[] = [];
    for (const message of messages) {
      const raw = decode(message);
      if (raw instanceof PermanentError) rejected.push({ message, error: raw });
      else raws.push(raw);
    }
    counters.invalid += rejected.length;
    if (raws.length === 0) return { rejected, states: [] };

    const devices = await deps.directory.resolve(new Set(raws.map((r) => r.uniqueId)));
    const deviceIds = [...new Set([...devices.values()].map((d) => d.id))];
    const states = await statesOf(messages[0]!.partition, deviceIds);
    await restoreMissing(states, devices.values());

    const rows: HistoryRow[] = [];
    const enrichedOut: OutgoingMessage[] = [];
    const enriched: EnrichedPosition[] = [];
    const changed = new Map<number, { state: LiveState; userIds: number[] }>();
    const lastInBatch = new Map<number, TailPoint>();
    for (const raw of raws) {
      const device = devices.get(raw.uniqueId);
      if (!device) {
        deps.unregistered.see(raw.uniqueId, raw.protocol, raw.serverTime);
        counters.unregistered++;
        continue;
      }
      const current = states.get(device.id);
      const found = current ? previousPoint(current.tail, lastInBatch.get(device.id), raw) : { prev: undefined, known: true };
      // Only a replay or a late fix older than the device's whole tail gets here: rare, so one query each is fine.
      const prev = found.known ? found.prev : await deps.history.previous(device.id, raw);
      const out = enrichPosition(raw, device, current, prev);
      lastInBatch.set(device.id, { id: raw.id, fixTime: raw.fixTime, latitude: raw.latitude, longitude: raw.longitude });
      states.set(device.id, out.state);
      changed.set(device.id, { state: out.state, userIds: device.userIds });
      rows.push(out.history);
      enriched.push(out.enriched);
      enrichedOut.push({ key: raw.uniqueId, value: JSON.stringify(out.enriched) });
    }
    if (rows.length === 0) return { rejected, states: [] };

    const historyWritten = write.history(rows);
    const statesWritten = write.states([...changed.values()]);
    write.added();
    await Promise.all([
      historyWritten,
      statesWritten,
      deps.producer.send(deps.enrichedTopic, enrichedOut),
      deps.driverRfid?.handle(enriched),
    ]);
    counters.positions += rows.length;
    return { rejected, states: [...changed.values()].map((c) => c.state) };
  }
}
