/**
 * `pnpm bench:rules`: how many enriched positions per second one rules service instance
 * takes through its detectors, beside the same consumer doing no detection, in one run.
 *
 * Seeds a temporary Postgres database through the api's queries: accounts of 100 devices
 * with 1,000 geofences and 100 alerts of every type each, every alert watching every
 * device of its account, and a twin of each account with the same devices and no alert.
 * Each round then runs the rules service twice over the same tracks, each from a topic
 * of its own filled before the clock starts: once on the twins' devices (every position
 * decoded, found unwatched by the rule book and committed: the baseline) and once on the
 * watched devices (every position through its hundred alerts' detectors, rule state read
 * from and written to Redis, events recorded in Postgres). The clock runs from the moment
 * the consumer holds its partitions until it has handled every position.
 *
 * Ends with name=value lines; exits 0 whether or not the bars are met. See bench/README.md.
 */
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector";
import { PerformanceObserver } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { createKafkaBus, createMemoryBus, type Bus } from "@fleet/bus";
import { openDb } from "@fleet/db";
import { createRedisLive } from "@fleet/live";
import { startRules } from "@fleet/rules";
import { kafkaTest, redisTest, serviceUrls, tempPostgresDb } from "@fleet/testkit";
import { cleanup, defer, log, runBench, sleep } from "./live/harness.js";
import { loadNote } from "./live/proc.js";
import { fmt, median } from "./live/stats.js";
import { seedAccounts, type SeededAccount } from "./rules/seed.js";
import { loadRulesSettings } from "./rules/settings.js";
import { trackChunks } from "./rules/track.js";

const BARS = { perS: 50_000, ratio: 0.5 };
const PARTITIONS = 12;
const WEEK_MS = 7 * 86_400_000;
/** A Monday, 05:00 UTC: the tracks run through the working-hours schedules' edge. */
const T0 = Date.UTC(2026, 10, 2, 5, 0, 0);

const settings = loadRulesSettings();

/** Starts the CPU profile BENCH_RULES_CPU_PROFILE asks for, of one run of the last round (its label in the file's name); the returned function stops it and writes the file. */
async function startProfile(label: string): Promise<(() => Promise<void>) | undefined> {
  if (!settings.BENCH_RULES_CPU_PROFILE) return undefined;
  const path = settings.BENCH_RULES_CPU_PROFILE.replace(/(\.cpuprofile)?$/, `.${label}.cpuprofile`);
  const session = new Session();
  session.connect();
  const post = (method: string) => new Promise<unknown>((resolve, reject) => session.post(method, (err, result) => (err ? reject(err) : resolve(result))));
  await post("Profiler.enable");
  await post("Profiler.start");
  return async () => {
    const { profile } = (await post("Profiler.stop")) as { profile: object };
    await writeFile(path, JSON.stringify(profile));
    session.disconnect();
    log(`  CPU profile of this run written to ${path}`);
  };
}

/** Milliseconds the process has spent in garbage collection since the bench began. */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

const warnOnly = {
  info() {},
  debug() {},
  warn: (obj: object, msg?: string) => console.error(`[rules] warn: ${msg ?? ""} ${JSON.stringify(obj)}`),
  error: (obj: object, msg?: string) => console.error(`[rules] error: ${msg ?? ""} ${JSON.stringify(obj)}`),
};

interface Run {
  perS: number;
  cpuUs: number;
  /** The main thread's pauses for garbage collection, µs per position. */
  gcUs: number;
  events: number;
}

async function main() {
  const sizes = {
    users: settings.BENCH_RULES_USERS,
    devicesPerUser: settings.BENCH_RULES_DEVICES_PER_USER,
    geofencesPerUser: settings.BENCH_RULES_GEOFENCES_PER_USER,
    alertsPerUser: settings.BENCH_RULES_ALERTS_PER_USER,
    watchedShare: settings.BENCH_RULES_WATCHED_SHARE,
  };
  const count = settings.BENCH_RULES_POSITIONS;
  log(`bench:rules on the ${settings.BENCH_RULES_BUS} bus, ${fmt(count)} positions per run, ${settings.BENCH_RULES_ROUNDS} rounds ${loadNote()}`);

  const pg = await tempPostgresDb();
  defer("drop the temporary database", () => pg.cleanup());
  const handle = await openDb({ databaseUrl: pg.url, dataDir: "./unused" });
  defer("close the database pool", () => handle.close());
  await handle.migrate();
  log(`seeding ${sizes.users} accounts and their twins`);
  const seeded = await seedAccounts(handle.db, sizes, log);

  const kafka = kafkaTest("bench-rules");
  defer("delete the bench's topics and groups", () => kafka.cleanup());
  const bus: Bus =
    settings.BENCH_RULES_BUS === "kafka"
      ? createKafkaBus({ brokers: serviceUrls.kafka.split(","), clientId: "bench-rules", logger: warnOnly })
      : createMemoryBus({ logger: warnOnly });
  defer("close the bus", () => bus.close());
  const side = { notices: kafka.topic("notices"), commands: kafka.topic("commands"), dead: kafka.topic("dead") };
  await bus.ensureTopics(Object.values(side), 1);
  const producer = await bus.producer();
  defer("close the producer", () => producer.close());

  /** The run's events by type (its positions' ids are its own). */
  const eventTypes = async (fromId: number, toId: number) => {
    const result = await handle.db.execute(sql`select type, count(*)::int as n from events where position_id >= ${fromId} and position_id < ${toId} group by type order by n desc`);
    return (result as unknown as { rows: { type: string; n: number }[] }).rows.map((r) => `${r.type} ${fmt(r.n)}`).join(", ");
  };

  let runs = 0;
  /** One run: a fresh topic filled with the accounts' tracks, then a fresh group draining it. */
  async function run(label: string, accounts: readonly SeededAccount[], positions: number, round: number): Promise<Run> {
    const n = ++runs;
    const topic = kafka.topic(`enriched-${n}`);
    await bus.ensureTopics([topic], PARTITIONS);
    // Ids and times of their own per run, so no event's dedupe key repeats an earlier run's.
    const track = { idBase: n * 10_000_000, t0: T0 + round * WEEK_MS };
    for (const chunk of trackChunks(accounts, positions, track)) await producer.send(topic, chunk, { timeoutMs: 60_000 });
    const redis = redisTest(`bench-rules-${n}`);
    const live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    try {
      const rules = await startRules({
        bus,
        db: handle.db,
        live,
        logger: warnOnly,
        topic,
        groupId: kafka.groupId(`rules-${n}`),
        fromBeginning: true,
        noticesTopic: side.notices,
        commandsTopic: side.commands,
        deadTopic: side.dead,
        partitionsConcurrently: settings.BENCH_RULES_PARTITIONS_CONCURRENTLY,
        sweepEveryMs: 3_600_000,
      });
      const profiling = round === settings.BENCH_RULES_ROUNDS ? await startProfile(label) : undefined;
      const t0 = process.hrtime.bigint();
      const cpu0 = process.cpuUsage();
      const gc0 = gcMs;
      // The instance's pace once running: timed from when it has handled a tenth of the
      // positions, past joining the group and its first reads of the accounts' rule records,
      // which a long-running instance does once (the whole run's pace is logged beside it).
      let steady: { at: bigint; seen: number; cpu: NodeJS.CpuUsage; gcMs: number } | undefined;
      let reported = 0;
      while (rules.seen() < positions) {
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        if (s > settings.BENCH_RULES_TIMEOUT_S) throw new Error(`${label}: ${rules.seen()} of ${positions} positions handled after ${settings.BENCH_RULES_TIMEOUT_S} s`);
        if (!steady && rules.seen() >= positions / 10) steady = { at: process.hrtime.bigint(), seen: rules.seen(), cpu: process.cpuUsage(), gcMs };
        if (s - reported >= 2) {
          reported = s;
          log(`  ${label}: ${fmt(rules.seen())} positions handled, ${fmt(rules.seen() / s)}/s, ${fmt(rules.recorded())} events`);
        }
        await sleep(5);
      }
      const end = process.hrtime.bigint();
      const from = steady ?? { at: t0, seen: 0, cpu: cpu0, gcMs: gc0 };
      const cpu = process.cpuUsage(from.cpu);
      await profiling?.();
      const handled = positions - from.seen;
      const result = { perS: handled / (Number(end - from.at) / 1e9), cpuUs: (cpu.user + cpu.system) / handled, gcUs: ((gcMs - from.gcMs) * 1000) / handled, events: rules.recorded() };
      log(`  ${label}: the whole run, start-up included: ${fmt(positions / (Number(end - t0) / 1e9))} positions/s`);
      await rules.close();
      log(`  ${label}: ${fmt(result.perS)} positions/s, ${fmt(result.cpuUs, 1)} µs CPU/position (garbage collection pauses ${fmt(result.gcUs, 1)} µs/position), ${fmt(result.events)} events recorded ${loadNote()}`);
      if (result.events > 0) log(`    by type: ${await eventTypes(track.idBase, track.idBase + positions)}`);
      return result;
    } finally {
      await live.close();
      await redis.cleanup();
    }
  }

  const total = settings.BENCH_RULES_USERS * settings.BENCH_RULES_DEVICES_PER_USER;
  const warmup = Math.min(count, total * 30);
  log(`warming up (JIT) on ${fmt(warmup)} positions of each`);
  await run("warm-up baseline", seeded.unwatched, warmup, 0);
  await run("warm-up detection", seeded.watched, warmup, 0);

  const rounds: { baseline: Run; rules: Run }[] = [];
  for (let r = 1; r <= settings.BENCH_RULES_ROUNDS; r++) {
    log(`round ${r}/${settings.BENCH_RULES_ROUNDS} ${loadNote()}`);
    // The order alternates, so a drift of the machine's speed does not favour one side.
    const first = r % 2 === 1 ? "baseline" : "rules";
    const baseline = first === "baseline" ? await run("baseline", seeded.unwatched, count, r) : undefined;
    const rules = await run("detection", seeded.watched, count, r);
    rounds.push({ baseline: baseline ?? (await run("baseline", seeded.unwatched, count, r)), rules });
  }

  const perS = median(rounds.map((r) => r.rules.perS));
  const basePerS = median(rounds.map((r) => r.baseline.perS));
  const ratio = median(rounds.map((r) => r.rules.perS / r.baseline.perS));
  const cpuUs = median(rounds.map((r) => r.rules.cpuUs));
  const baseCpuUs = median(rounds.map((r) => r.baseline.cpuUs));
  const watching = sizes.watchedShare === 1 ? "every alert watching every device" : `each alert watching ${Math.round(sizes.watchedShare * 100)}% of the devices`;
  log(`accounts: ${sizes.users} × ${sizes.devicesPerUser} devices, ${fmt(seeded.geofences / sizes.users)} geofences and ${fmt(seeded.alerts / sizes.users)} alerts each, ${watching}`);
  log(`detection: ${fmt(perS)} positions/s (rounds ${rounds.map((r) => fmt(r.rules.perS)).join(", ")}), ${fmt(cpuUs, 1)} µs CPU/position, ${fmt(median(rounds.map((r) => r.rules.events)))} events per run`);
  log(`baseline:  ${fmt(basePerS)} positions/s (rounds ${rounds.map((r) => fmt(r.baseline.perS)).join(", ")}), ${fmt(baseCpuUs, 1)} µs CPU/position`);
  log(`bars: ≥ ${fmt(BARS.perS)} positions/s: ${perS >= BARS.perS ? "met" : "MISSED"}; ≥ ${BARS.ratio} × baseline: ${ratio >= BARS.ratio ? "met" : "MISSED"} (${ratio.toFixed(2)})`);
  await cleanup();
  console.log(`rules_positions_per_s=${Math.round(perS)}`);
  console.log(`rules_cpu_us_per_position=${cpuUs.toFixed(1)}`);
  console.log(`rules_baseline_positions_per_s=${Math.round(basePerS)}`);
  console.log(`rules_baseline_cpu_us_per_position=${baseCpuUs.toFixed(1)}`);
  console.log(`rules_vs_baseline_ratio=${ratio.toFixed(2)}`);
}

void runBench(main);
