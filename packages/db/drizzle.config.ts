import { defineConfig } from "drizzle-kit";

// `pnpm --filter @fleet/db exec drizzle-kit generate` diffs src/schema against the
// snapshots in drizzle/ and writes the next numbered migration there. No database needed.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema/index.ts",
  out: "./drizzle",
});
