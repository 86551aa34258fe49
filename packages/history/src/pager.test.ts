import type { HistoryRow } from "@fleet/contracts";
import { createClient } from "@clickhouse/client";
import { clickhouseTestDb, hasService, tempChdbDir } from "@fleet/testkit";
import { createChdbConnection } from "chdb/connection";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { row } from "../test/contract.js";
import { createChdbHistory } from "./chdb.js";
import { clickHouseHistoryOverClient, createClickHouseHistory } from "./clickhouse.js";
import { historyPager, type HistoryPager } from "./pager.js";
import type { HistoryQuery, HistoryStore } from "./port.js";

const T0 = Date.UTC(2025, 2, 30, 0, 0, 0);
const MINUTE = 60_000;
let nextId = 1;

/** `n` fixes of a device, `stepMs` apart from `start`, with fresh ids. */
function track(deviceId: number, start: number, n: number, stepMs: number): HistoryRow[] {
  return Array.from({ length: n }, (_, i) => row({ id: nextId++, deviceId, fixTime: start + i * stepMs }));
}

const ids = (rows: readonly HistoryRow[]) => rows.map((r) => r.id);

function pagerSuite(name: string, open: () => Promise<{ store: HistoryStore; cleanup(): Promise<void> }>) {
  describe(`history pages: ${name}`, () => {
    let store: HistoryStore;
    let cleanup: () => Promise<void>;
    /** Every query the pager sent, to see what it skipped. */
    let queries: HistoryQuery[];
    let indexBuilds: number;
    let pager: HistoryPager;

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });
    beforeEach(() => {
      queries = [];
      indexBuilds = 0;
      pager = historyPager({
        query: (q) => (queries.push(q), store.query(q)),
        minuteCounts: (r) => (indexBuilds++, store.minuteCounts(r)),
        storedCount: (r) => store.storedCount(r),
      });
    });

    it("counts a range's rows per minute once each, replays included, its ends inclusive", async () => {
      const rows = [...track(11, T0 + 30_000, 5, 10_000), ...track(12, T0, 3, 1000)];
      await store.insert(rows);
      await store.insert(rows.slice(0, 3)); // a replay
      expect(await store.minuteCounts({ deviceId: 11, fromMs: T0, toMs: T0 + 10 * MINUTE })).toEqual([
        [T0, 3],
        [T0 + MINUTE, 2],
      ]);
      expect(await store.minuteCounts({ deviceId: 11, fromMs: T0 + 40_000, toMs: T0 + 60_000 })).toEqual([
        [T0, 2],
        [T0 + MINUTE, 1],
      ]);
      expect(await store.minuteCounts({ deviceId: 13, fromMs: T0, toMs: T0 + MINUTE })).toEqual([]);
      // Stored rows, the replay's second copies included until a merge drops them.
      expect(await store.storedCount({ deviceId: 11, fromMs: T0, toMs: T0 + 10 * MINUTE })).toBeGreaterThanOrEqual(5);
    });

    describe("a device with 1,230 fixes at 10 Hz (600 a minute)", () => {
      const device = 21;
      const range = { deviceId: device, fromMs: T0, toMs: T0 + 3_600_000 };
      let all: HistoryRow[];

      beforeAll(async () => {
        const fixes = track(device, T0, 1230, 100);
        // Out of order, in batches: pages follow time, not insert order.
        await store.insert(fixes.slice(600));
        await store.insert(fixes.slice(0, 600));
        await store.insert(track(device + 1, T0, 50, 100));
        all = await store.query(range);
        expect(all).toHaveLength(1230);
      });

      it("gives the same rows as an offset query, at page boundaries and on the last page", async () => {
        for (const [offset, limit] of [[0, 50], [50, 50], [550, 100], [600, 400], [1200, 50], [1229, 400], [1000, 400]] as const) {
          const page = await pager.page(range, offset, limit);
          expect(page.total).toBe(1230);
          expect(ids(page.rows), `offset ${offset}`).toEqual(ids(all.slice(offset, offset + limit)));
        }
        expect(await pager.page(range, 1230, 50)).toEqual({ total: 1230, rows: [] });
        expect(indexBuilds).toBe(1);
      });

      it("reads a deep page from its own minutes, never past the rows of earlier ones", async () => {
        await pager.page(range, 1210, 50);
        const q = queries.at(-1)!;
        expect(q.fromMs).toBe(T0 + 2 * MINUTE);
        expect(q.offset).toBe(1210 - 1200);
        // Nor past the minute of its last row.
        expect(q.toMs).toBe(T0 + 3 * MINUTE - 1);
        await pager.page(range, 590, 20);
        expect([queries.at(-1)!.fromMs, queries.at(-1)!.toMs, queries.at(-1)!.offset]).toEqual([T0, T0 + 2 * MINUTE - 1, 590]);
      });

      it("sees rows written or deleted after the index was built, at once", async () => {
        await pager.page(range, 0, 50);
        const late = row({ id: nextId++, deviceId: device, fixTime: T0 + 150 }); // between the 2nd and 3rd fix
        await store.insert([late]);
        let page = await pager.page(range, 0, 4);
        expect(page.total).toBe(1231);
        expect(ids(page.rows)).toEqual([all[0]!.id, all[1]!.id, late.id, all[2]!.id]);

        await store.deletePositions([device], [late.id, all[0]!.id]);
        page = await pager.page(range, 0, 2);
        expect(page.total).toBe(1229);
        expect(ids(page.rows)).toEqual([all[1]!.id, all[2]!.id]);
        expect(indexBuilds).toBe(3);
        // Restore the fixture for the tests after this one.
        await store.insert([all[0]!]);
      });

      it("keeps indexes within its bound, dropping the least recently used range", async () => {
        const small = historyPager(store, { maxMinutes: 3 });
        const other = { deviceId: device + 1, fromMs: T0, toMs: T0 + 3_600_000 };
        await small.page(range, 0, 1); // 3 minutes
        await small.page(other, 0, 1); // 1 minute: the first range goes
        expect((await small.page(range, 1229, 1)).rows.map((r) => r.id)).toEqual([all[1229]!.id]);
        small.forget(device);
        expect((await small.page(range, 0, 1)).total).toBe(1230);
      });
    });
  });
}

pagerSuite("chdb", async () => {
  const dir = await tempChdbDir();
  return { store: createChdbHistory({ path: dir.path }), cleanup: dir.cleanup };
});

describe.runIf(hasService("clickhouse"))("ClickHouse server", () => {
  pagerSuite("clickhouse server", async () => {
    const db = clickhouseTestDb("pages");
    return { store: createClickHouseHistory({ url: db.url, username: db.username, password: db.password, database: db.database }), cleanup: () => db.cleanup() };
  });
});

// The ClickHouse adapter's own code (bound parameters, quoted 64-bit integers) without a
// server, over chDB's implementation of the client's connection, as clickhouse.test.ts does.
pagerSuite("clickhouse adapter over chdb/connection", async () => {
  const dir = await tempChdbDir();
  const client = createClient({
    connection: createChdbConnection({ path: dir.path }) as unknown as NonNullable<Parameters<typeof createClient>[0]>["connection"],
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
  });
  return { store: clickHouseHistoryOverClient(client, "fleet"), cleanup: dir.cleanup };
});
