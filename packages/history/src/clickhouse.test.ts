import { createClient } from "@clickhouse/client";
import { clickhouseTestDb, hasService, tempChdbDir } from "@fleet/testkit";
import { createChdbConnection } from "chdb/connection";
import { describe } from "vitest";
import { historyContract } from "../test/contract.js";
import { clickHouseHistoryOverClient, createClickHouseHistory } from "./clickhouse.js";

// Skipped unless CLICKHOUSE_URL points at a reachable server: ClickHouse is the one
// service the dev machines and CI do not run (chDB stands in for it; Debian's
// packaged server is too old for this schema). Set CLICKHOUSE_URL to include it.
describe.runIf(hasService("clickhouse"))("ClickHouse server", () => {
  historyContract("clickhouse server", async () => {
    const db = clickhouseTestDb("history");
    return {
      open: () => createClickHouseHistory({ url: db.url, username: db.username, password: db.password, database: db.database }),
      cleanup: () => db.cleanup(),
    };
  });
});

type ClientConnection = NonNullable<Parameters<typeof createClient>[0]>["connection"];

// Runs everywhere: the ClickHouse adapter's own code (query_params, client.insert,
// the client's JSONEachRow parsing) over chDB's in-process implementation of
// @clickhouse/client's Connection, so it is exercised without a server. The setting
// makes chDB quote 64-bit integers in JSON as a server does by default.
historyContract("clickhouse adapter over chdb/connection", async () => {
  const dir = await tempChdbDir();
  const client = () =>
    createClient({
      // chdb types its Connection against @clickhouse/client-common 1.23.0, the client
      // bundles its own copy of the same interface; the shapes match at runtime.
      connection: createChdbConnection({ path: dir.path }) as unknown as ClientConnection,
      clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
    });
  return {
    open: () => clickHouseHistoryOverClient(client(), "fleet"),
    cleanup: dir.cleanup,
  };
});
