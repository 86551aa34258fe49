/**
 * What each of the tracker's outputs costs: one backlog, then the tracker as shipped and
 * with one output made free (or packed), each from the start of its own consumer group.
 *
 *   VARIANTS=stock,no-enriched,packed-enriched,no-history,no-live BENCH_TRACKER_POSITIONS=300000 \
 *     pnpm --filter @fleet/bench experiment src/experiments/tracker-variants.ts
 */
import { logLevel } from "kafkajs";
import { Type } from "@sinclair/typebox";
import { createKafkaBus, type BusProducer } from "@fleet/bus";
import { TrackerEnvSchema, loadConfigOrExit } from "@fleet/config";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { fmt, loadNote } from "../measure.js";
import { loadBenchSettings } from "../settings.js";
import { drainWithTracker, prepareBacklog, type DrainRun, type TrackerVariant } from "../tracker-drain.js";
import { packedProducer } from "./producers.js";

const settings = loadBenchSettings();
const trackerConfig = loadConfigOrExit(TrackerEnvSchema);
const env = loadConfigOrExit(Type.Object({ VARIANTS: Type.String({ default: "stock,no-enriched,packed-enriched,no-history,no-live" }) }));
const t0 = Date.now();
const log = (line: string) => console.log(`[exp ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${line}`);

const brokers = serviceUrls.kafka.split(",");
const names = kafkaTest("bench-tracker-exp");
const rawTopic = names.topic("raw");
const enrichedTopic = names.topic("enriched");
const baselineTopic = names.topic("baseline");
const bus = createKafkaBus({ brokers, clientId: "fleet-bench-exp", logLevel: logLevel.WARN });
const undo: (() => Promise<unknown>)[] = [];

const free: BusProducer = { send: async () => {}, close: async () => {} };
const variants: Record<string, TrackerVariant> = {
  stock: {},
  "no-enriched": { producer: async () => free },
  "packed-enriched": { producer: async () => packedProducer(brokers, 12) },
  "no-history": { wrapHistory: (h) => ({ ...h, insert: async () => {} }), finishOnPipeline: true },
  "no-live": { wrapLive: (l) => ({ ...l, getStates: async () => new Map(), putStates: async () => {} }) },
};

const results: [string, DrainRun][] = [];
try {
  await bus.ensureTopics([rawTopic, baselineTopic, enrichedTopic], 12);
  const opts = {
    bus,
    brokers,
    rawTopic,
    baselineTopic,
    enrichedTopic,
    groupId: "",
    positions: settings.BENCH_TRACKER_POSITIONS,
    devices: settings.BENCH_DEVICES,
    prefillBatch: settings.BENCH_PREFILL_BATCH,
    timeoutS: settings.BENCH_TRACKER_TIMEOUT_S,
    config: trackerConfig,
    defer: (_what: string, run: () => Promise<unknown>) => void undo.push(run),
    log,
    loadNote,
  };
  const { db } = await prepareBacklog(opts);
  for (const name of env.VARIANTS.split(",")) {
    const variant = variants[name];
    if (!variant) throw new Error(`unknown variant ${name}; known: ${Object.keys(variants).join(", ")}`);
    log(`variant ${name}`);
    results.push([name, await drainWithTracker(opts, db, names.groupId(name), variant)]);
  }
} finally {
  for (const run of undo.reverse()) await run().catch((err: unknown) => console.error(String(err)));
  await bus.close();
  await names.cleanup();
}
console.log("\nvariant             pos/s    CPU µs/pos");
for (const [name, r] of results) console.log(`${name.padEnd(18)} ${fmt(r.trackerPerS).padStart(7)} ${fmt(r.trackerCpuUs, 1).padStart(10)}${r.complete ? "" : " (incomplete)"}`);
process.exit(0);
