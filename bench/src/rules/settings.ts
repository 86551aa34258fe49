import { Type, type Static } from "@sinclair/typebox";
import { loadConfigOrExit } from "@fleet/config";

/** `pnpm bench:rules`' knobs, validated like an app's config. */
export const RulesBenchEnvSchema = Type.Object({
  /** Which bus the rules service consumes from: Kafka (KAFKA_BROKERS, as deployed) or the embedded one. */
  BENCH_RULES_BUS: Type.Union([Type.Literal("kafka"), Type.Literal("memory")], { default: "kafka" }),
  /** Accounts with alerts; as many again have the same devices' twins and no alert (the baseline's). */
  BENCH_RULES_USERS: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  BENCH_RULES_DEVICES_PER_USER: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }),
  BENCH_RULES_GEOFENCES_PER_USER: Type.Integer({ minimum: 0, maximum: 100_000, default: 1000 }),
  /** Alerts per user, the types mixed as in seed.ts. */
  BENCH_RULES_ALERTS_PER_USER: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }),
  /**
   * The share of its user's devices each alert watches (each alert its own run of them, so every
   * device has about this share of the alerts). 1, every alert on every device, is the worst case.
   */
  BENCH_RULES_WATCHED_SHARE: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 1 }),
  /** Positions each run consumes (spread over the devices, 10 s apart per device). */
  BENCH_RULES_POSITIONS: Type.Integer({ minimum: 1000, maximum: 10_000_000, default: 300_000 }),
  /** Rounds of the two runs, alternating; the figures are the medians. */
  BENCH_RULES_ROUNDS: Type.Integer({ minimum: 1, maximum: 20, default: 3 }),
  BENCH_RULES_TIMEOUT_S: Type.Integer({ minimum: 10, maximum: 3600, default: 300 }),
  /** The rules service's partitionsConcurrently, as RULES_PARTITIONS_CONCURRENTLY sets it. */
  BENCH_RULES_PARTITIONS_CONCURRENTLY: Type.Integer({ minimum: 1, maximum: 64, default: 4 }),
  /** When set, the last round's two runs are profiled (node:inspector) into `<it>.baseline.cpuprofile` and `<it>.detection.cpuprofile`. */
  BENCH_RULES_CPU_PROFILE: Type.Optional(Type.String({ minLength: 1 })),
});
export type RulesBenchEnv = Static<typeof RulesBenchEnvSchema>;

export const loadRulesSettings = (): RulesBenchEnv => loadConfigOrExit(RulesBenchEnvSchema);
