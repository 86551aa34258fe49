import { describe, expect, it } from "vitest";
import { hasService, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { openDb } from "./client.js";
import { createUser, findUserByEmail } from "./queries/users.js";
import { describeRecordsContract } from "./records.contract.js";

describeRecordsContract("pglite", async () => {
  const tmp = await tempPglite();
  return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
});

// Skips (with a notice from global setup) where no PostgreSQL answers; CI fails instead.
describe.runIf(hasService("postgres"))("postgres", () => {
  describeRecordsContract("postgres", async () => {
    const tmp = await tempPostgresDb();
    return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
  });

  it("lets several apps migrate one fresh database at once", async () => {
    const tmp = await tempPostgresDb({ blank: true });
    const handles = await Promise.all([1, 2, 3].map(() => openDb({ databaseUrl: tmp.url, dataDir: "unused" })));
    try {
      await Promise.all(handles.map((h) => h.migrate()));
      const email = `m-${uniqueSuffix()}@example.com`;
      await createUser(handles[0]!.db, { email, password: "pw" });
      expect((await findUserByEmail(handles[2]!.db, email))?.email).toBe(email);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await tmp.cleanup();
    }
  });
});

describe("pglite data directory", () => {
  it("keeps records across close and reopen", async () => {
    const tmp = await tempPglite();
    try {
      const first = await openDb({ dataDir: tmp.dataDir });
      expect(first.kind).toBe("pglite");
      await first.migrate();
      const user = await createUser(first.db, { email: "keep@example.com", password: "pw" });
      await first.close();

      const second = await openDb({ dataDir: tmp.dataDir });
      await second.migrate();
      expect((await findUserByEmail(second.db, "keep@example.com"))?.id).toBe(user.id);
      await second.close();
    } finally {
      await tmp.cleanup();
    }
  });
});
