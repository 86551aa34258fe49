import { describe, expect, it } from "vitest";
import { hasService, sleep, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { openDb, type DbHandle } from "./client.js";
import { USERS_CHANGED_CHANNEL } from "./notices.js";
import { changePassword, createUser, rotateApiHash } from "./queries/users.js";

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await sleep(10);
}

function usersNoticeContract(kind: string, open: () => Promise<{ handle: DbHandle; cleanup(): Promise<void> }>) {
  it(`notices every change to a user row with its api hash from before it [${kind}]`, async () => {
    const { handle, cleanup } = await open();
    try {
      await handle.migrate();
      const heard: string[] = [];
      const listener = await handle.listen(USERS_CHANGED_CHANNEL, { notice: (p) => heard.push(p), gap: () => undefined });
      expect(listener.listening).toBe(true);
      const user = await createUser(handle.db, { email: `n-${uniqueSuffix()}@example.com`, password: "pw-123456" });
      const rotated = await rotateApiHash(handle.db, user.id);
      await changePassword(handle.db, user.id, "another-pw-1");
      await until(() => heard.length >= 2);
      // Created: nothing to forget. Rotated: the first hash. Password: the rotated one.
      expect(heard).toEqual([user.apiHash, rotated]);
      await listener.close();
      expect(listener.listening).toBe(false);
    } finally {
      await handle.close();
      await cleanup();
    }
  });
}

usersNoticeContract("pglite", async () => {
  const tmp = await tempPglite();
  return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
});

// Skips (with a notice from global setup) where no PostgreSQL answers; CI fails instead.
describe.runIf(hasService("postgres"))("postgres", () => {
  usersNoticeContract("postgres", async () => {
    const tmp = await tempPostgresDb();
    return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
  });
});
