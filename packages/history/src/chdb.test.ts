import { tempChdbDir } from "@fleet/testkit";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { historyContract, row } from "../test/contract.js";
import { createChdbHistory } from "./chdb.js";

historyContract("chdb", async () => {
  const dir = await tempChdbDir();
  return { open: () => createChdbHistory({ path: dir.path }), cleanup: dir.cleanup };
});

describe("chdb adapter", () => {
  it("keeps its data under the given path", async () => {
    const dir = await tempChdbDir();
    const store = createChdbHistory({ path: join(dir.path, "nested", "history") });
    try {
      await store.migrate();
      await store.insert([row({ id: 1 })]);
      expect(store.kind).toBe("chdb");
      expect((await readdir(join(dir.path, "nested", "history"))).length).toBeGreaterThan(0);
    } finally {
      await store.close();
      await dir.cleanup();
    }
  });

  it("refuses an invalid database name", () => {
    expect(() => createChdbHistory({ path: "/nowhere", database: "x; DROP" })).toThrow(/database name/);
  });
});
