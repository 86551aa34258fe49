import type { User } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { userCache } from "./user-cache.js";

const user = (id: number, apiHash: string, name = "") => ({ id, apiHash, email: `${name || id}@x` }) as unknown as User;

/** A users table of hashes, counting lookups, able to hold one back. */
function table(rows: User[]) {
  const asked: string[] = [];
  let hold: Promise<void> | undefined;
  return {
    rows,
    asked,
    holdNext() {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return release;
    },
    async find(hash: string) {
      asked.push(hash);
      const found = rows.find((u) => u.apiHash === hash);
      const h = hold;
      hold = undefined;
      await h;
      return found;
    },
  };
}

describe("the users cache behind authentication", () => {
  it("looks a hash up once while notices are heard, and again after its user's notice", async () => {
    const t = table([user(1, "a"), user(2, "b")]);
    const c = userCache((h) => t.find(h), { maxUsers: 10, listening: () => true });
    expect((await c.byApiHash("a"))?.id).toBe(1);
    expect((await c.byApiHash("a"))?.id).toBe(1);
    expect(await c.byApiHash("nope")).toBeUndefined();
    expect(await c.byApiHash("nope")).toBeUndefined();
    expect(t.asked).toEqual(["a", "nope", "nope"]);

    t.rows[0] = user(1, "a2");
    c.notice("a");
    expect(await c.byApiHash("a")).toBeUndefined();
    expect((await c.byApiHash("a2"))?.id).toBe(1);
    c.forgetUsers([1]);
    await c.byApiHash("a2");
    expect(t.asked).toEqual(["a", "nope", "nope", "a", "a2", "a2"]);
  });

  it("keeps nothing while it does not hear notices, and drops everything at a gap", async () => {
    let listening = false;
    const t = table([user(1, "a")]);
    const c = userCache((h) => t.find(h), { maxUsers: 10, listening: () => listening });
    await c.byApiHash("a");
    await c.byApiHash("a");
    expect(t.asked).toHaveLength(2);
    listening = true;
    await c.byApiHash("a");
    await c.byApiHash("a");
    expect(t.asked).toHaveLength(3);
    c.gap();
    await c.byApiHash("a");
    expect(t.asked).toHaveLength(4);
  });

  it("does not keep a row read before a notice that came while it was read", async () => {
    const t = table([user(1, "a", "old")]);
    const c = userCache((h) => t.find(h), { maxUsers: 10, listening: () => true });
    const release = t.holdNext();
    const slow = c.byApiHash("a");
    await new Promise((r) => setTimeout(r, 5));
    t.rows[0] = user(1, "a", "new");
    c.notice("a");
    release();
    expect((await slow)?.email).toBe("old@x");
    expect((await c.byApiHash("a"))?.email).toBe("new@x");
  });
});
