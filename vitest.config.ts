import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files that may share a worker's modules with the files it ran before (`isolate:
 * false`): each loading the api, the stores and their drivers afresh cost about 1.5 s of
 * CPU a file, a third of the api suites' time. They keep no state beyond the stores they
 * open and close (a chDB store must be closed: the engine holds one directory a process).
 */
const SHARED = ["{apps,packages}/*/src/**/*.test.ts", "apps/api/test/**/*.test.ts"];

/**
 * Each in a worker of its own: the services' end-to-end, crash and restart tests start
 * whole apps (process-wide handlers, chDB directories, child processes), as do the benches.
 */
const ISOLATED = ["{apps,packages}/*/test/**/*.test.ts", "bench/test/**/*.test.ts", "test/**/*.test.ts"];

/**
 * The files that take longest, longest first (CI's reports; 13 s and more), mostly waiting on
 * brokers and child processes: started first in their project, in this order, so that the
 * workers end together instead of one of them being a run's tail. Without a cache of past
 * runs (a fresh clone) vitest starts the largest files first, and these are small.
 */
const LONGEST = [
  "bench/test/live.test.ts",
  "packages/live/src/race.test.ts",
  "apps/standalone/test/first-run.test.ts",
  "apps/ingest/test/broker-outage.test.ts",
  "bench/test/history.test.ts",
  "apps/standalone/test/e2e.test.ts",
  "apps/rules/test/crash.test.ts",
  "bench/test/rules.test.ts",
  "bench/test/ingest.test.ts",
  "apps/tracker/test/crash.test.ts",
  "apps/rules/test/fatal.test.ts",
  "apps/standalone/test/restart.test.ts",
  "apps/standalone/test/alerts-e2e.test.ts",
  "apps/simulator/test/simulator.test.ts",
  "apps/rules/test/rules.test.ts",
  "bench/test/reports.test.ts",
  "apps/rules/test/health.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((f) => f.project.name))];
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((path) => f.moduleId.endsWith(`/${path}`));
      return projects.indexOf(f.project.name) * (LONGEST.length + 1) + (i < 0 ? LONGEST.length : i);
    };
    // Array sort is stable: within each rank, vitest's own order stays.
    return sorted.map((f) => [rank(f), f] as const).sort((a, b) => a[0] - b[0]).map(([, f]) => f);
  }
}

// Tests import workspace packages from their TypeScript sources (the "@fleet/source"
// export condition), so no build is needed before `vitest run`.
const fromSource = { conditions: ["@fleet/source"] };

export default defineConfig({
  resolve: fromSource,
  ssr: { resolve: fromSource },
  // Where vitest runs the global setup files, which import workspace packages too.
  environments: { __vitest__: { resolve: fromSource } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests share one Kafka, Postgres and Redis; each test isolates itself
    // with its own topic, database and key prefix, so two workers are safe on 2 cores.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // Services probed first (testkit), then the migrated stores the temporary ones copy (db).
    globalSetup: ["./packages/testkit/src/global-setup.ts", "./packages/db/test/store-templates.ts"],
    projects: [
      { extends: true, test: { name: "shared", include: SHARED, isolate: false, sequence: { groupOrder: 1 } } },
      // First, alone, on three workers: these files mostly wait on brokers, groups and child
      // processes. (Vitest runs projects of different worker counts in groups, one by one.)
      // A server started from its sources takes about 12 s alone and over 30 s beside the
      // benches on two cores, so these tests get longer than the default.
      {
        extends: true,
        test: {
          name: "isolated",
          include: ISOLATED,
          exclude: [...configDefaults.exclude, ...SHARED],
          maxWorkers: 3,
          testTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
