import { withDeadLetters, type Bus, type BusConsumer, type BusProducer } from "@fleet/bus";
import { ConsumerGroups, Topics } from "@fleet/contracts";
import { assignDriversByRfid, recordUnregistered, type Db } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore } from "@fleet/live";
import { dbDeviceSource } from "./device-source.js";
import { DeviceDirectory } from "./handlers/device-directory.js";
import { DriverRfid } from "./handlers/driver-rfid.js";
import { UnregisteredCounter } from "./handlers/unregistered.js";
import { createPipeline, type Logger, type Pipeline } from "./pipeline.js";

export interface TrackerOptions {
  bus: Bus;
  db: Db;
  history: HistoryStore;
  live: LiveStore;
  logger: Logger;
  flushRows: number;
  flushMs: number;
  partitionsConcurrently: number;
  deviceSyncMs: number;
  /** See TRACKER_KEPT_STATES; its default when absent. */
  keptStates?: number;
  /** Overrides for tests that run several trackers or topics side by side. */
  topic?: string;
  enrichedTopic?: string;
  deadTopic?: string;
  groupId?: string;
}

export interface Tracker {
  pipeline: Pipeline;
  /** Messages written to positions.dead since start. */
  deadLettered(): number;
  /** Leaves the group after the batches in hand are written; uncommitted ones go to other members. */
  close(): Promise<void>;
}

/** Joins the tracker group on positions.raw and keeps the device directory in sync. */
export async function startTracker(opts: TrackerOptions): Promise<Tracker> {
  const directory = new DeviceDirectory(dbDeviceSource(opts.db));
  await directory.sync();
  const unregistered = new UnregisteredCounter();
  const producer: BusProducer = await opts.bus.producer();
  const pipeline = createPipeline({
    directory,
    unregistered,
    history: opts.history,
    live: opts.live,
    driverRfid: new DriverRfid((sightings) => assignDriversByRfid(opts.db, sightings), opts.live),
    producer,
    logger: opts.logger,
    flushRows: opts.flushRows,
    flushMs: opts.flushMs,
    keptStates: opts.keptStates,
    enrichedTopic: opts.enrichedTopic ?? Topics.positionsEnriched,
  });

  let syncing: Promise<void> = Promise.resolve();
  const tick = () => {
    syncing = (async () => {
      try {
        await directory.sync();
        await unregistered.flush((entries) => recordUnregistered(opts.db, entries));
      } catch (err) {
        opts.logger.warn({ err }, "device sync failed; retrying next interval");
      }
    })();
  };
  const timer = setInterval(tick, opts.deviceSyncMs);
  timer.unref();

  const groupId = opts.groupId ?? ConsumerGroups.tracker;
  const deadLetters = withDeadLetters(({ messages, isolated }) => pipeline.handleBatch(messages, { isolated }), {
    producer,
    deadTopic: opts.deadTopic ?? Topics.positionsDead,
    groupId,
    logger: opts.logger,
  });
  const consumer: BusConsumer = await opts.bus.consume({
    groupId,
    topic: opts.topic ?? Topics.positionsRaw,
    fromBeginning: true,
    partitionsConcurrently: opts.partitionsConcurrently,
    handleBatch: deadLetters.handleBatch,
  });
  opts.logger.info({ topic: opts.topic ?? Topics.positionsRaw }, "tracker consuming");

  return {
    pipeline,
    deadLettered: deadLetters.deadLettered,
    async close() {
      clearInterval(timer);
      await consumer.close();
      await pipeline.drain();
      await syncing;
      await unregistered.flush((entries) => recordUnregistered(opts.db, entries)).catch((err: unknown) => opts.logger.warn({ err }, "could not save unregistered counts"));
      await producer.close();
    },
  };
}
