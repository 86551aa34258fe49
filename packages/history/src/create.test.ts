import { tempChdbDir } from "@fleet/testkit";
import { readdir } from "node:fs/promises";
import { expect, it } from "vitest";
import { createHistory } from "./create.js";

it("uses chDB under DATA_DIR/history when CLICKHOUSE_URL is unset", async () => {
  const { path: dataDir, cleanup } = await tempChdbDir();
  const store = createHistory({ clickhouseDatabase: "fleet", dataDir });
  try {
    expect(store.kind).toBe("chdb");
    await store.migrate();
    expect(await readdir(dataDir)).toEqual(["history"]);
  } finally {
    await store.close();
    await cleanup();
  }
});

it("uses the ClickHouse server when CLICKHOUSE_URL is set, connecting only on use", async () => {
  const store = createHistory({ clickhouseUrl: "http://127.0.0.1:1", clickhouseDatabase: "fleet", dataDir: "/unused" });
  expect(store.kind).toBe("clickhouse");
  await store.close();
});
