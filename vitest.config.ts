import { defineConfig } from "vitest/config";

// Tests import workspace packages from their TypeScript sources (the "@fleet/source"
// export condition), so no build is needed before `vitest run`.
export default defineConfig({
  resolve: { conditions: ["@fleet/source"] },
  ssr: { resolve: { conditions: ["@fleet/source"] } },
  test: {
    include: ["{apps,packages,bench}/*/src/**/*.test.ts", "{apps,packages}/*/test/**/*.test.ts", "bench/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests share one Kafka, Postgres and Redis; each test isolates itself
    // with its own topic, database and key prefix, so two workers are safe on 2 cores.
    maxWorkers: 2,
    // Services probed first (testkit), then the migrated stores the temporary ones copy (db).
    globalSetup: ["./packages/testkit/src/global-setup.ts", "./packages/db/test/store-templates.ts"],
  },
});
