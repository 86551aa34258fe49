import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasService, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { openDb, type DbHandle } from "./client.js";
import { completeReportFile, createReportFile, failReportFile, findReportFile, pruneReportFiles } from "./queries/report-files.js";
import { createUser } from "./queries/users.js";

/** Generated reports kept for their links: PGlite and, where it answers, PostgreSQL. */
function describeFiles(label: string, open: () => Promise<{ handle: DbHandle; cleanup(): Promise<void> }>): void {
  describe(`report files (${label})`, () => {
    let store: { handle: DbHandle; cleanup(): Promise<void> };
    const db = () => store.handle.db;
    beforeAll(async () => {
      store = await open();
      await store.handle.migrate();
    });
    afterAll(() => store.cleanup());

    const user = async () => (await createUser(db(), { email: `r-${uniqueSuffix()}@example.com`, password: "secret-1" })).id;

    it("keeps a file for its token: pending, then ready with its bytes as written", async () => {
      const userId = await user();
      const { token } = await createReportFile(db(), { userId, fileName: "Weekly.xlsx", contentType: "application/x", ttlMs: 60_000 });
      expect(await findReportFile(db(), token)).toMatchObject({ userId, fileName: "Weekly.xlsx", status: "pending", body: null });
      const bytes = Buffer.from([0, 1, 2, 255, 0x50, 0x4b]);
      const { id } = await createReportFile(db(), { userId, fileName: "Other.pdf", contentType: "application/pdf", ttlMs: 60_000 });
      await completeReportFile(db(), id, bytes);
      const other = await createReportFile(db(), { userId, fileName: "Bad.pdf", contentType: "application/pdf", ttlMs: 60_000 });
      await failReportFile(db(), other.id, "no such device");
      expect(await findReportFile(db(), other.token)).toMatchObject({ status: "failed", error: "no such device" });
      // The first file's token still names the first file, untouched.
      expect((await findReportFile(db(), token))!.status).toBe("pending");
    });

    it("gives the bytes back as a Buffer, byte for byte", async () => {
      const userId = await user();
      const { id, token } = await createReportFile(db(), { userId, fileName: "a.xlsx", contentType: "application/x", ttlMs: 60_000 });
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
      await completeReportFile(db(), id, bytes);
      const found = await findReportFile(db(), token);
      expect(Buffer.isBuffer(found!.body)).toBe(true);
      expect(found!.body!.equals(bytes)).toBe(true);
    });

    it("answers nothing for a wrong or expired token, and prunes expired files", async () => {
      const userId = await user();
      const now = new Date();
      const { token } = await createReportFile(db(), { userId, fileName: "a.html", contentType: "text/html", ttlMs: 1000 }, now);
      expect(await findReportFile(db(), `${token.slice(0, -1)}x`, now)).toBeUndefined();
      expect(await findReportFile(db(), token, new Date(now.getTime() + 2000))).toBeUndefined();
      expect(await pruneReportFiles(db(), new Date(now.getTime() + 2000))).toBeGreaterThanOrEqual(1);
      expect(await findReportFile(db(), token, now)).toBeUndefined();
    });
  });
}

describeFiles("pglite", async () => {
  const tmp = await tempPglite();
  return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
});

describe.runIf(hasService("postgres"))("postgres", () => {
  describeFiles("postgres", async () => {
    const tmp = await tempPostgresDb();
    return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
  });
});
