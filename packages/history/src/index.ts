export * from "./port.js";
export { createChdbHistory, type ChdbHistoryOptions } from "./chdb.js";
export { createClickHouseHistory, clickHouseHistoryOverClient, type ClickHouseHistoryOptions } from "./clickhouse.js";
export { createHistory, type HistoryConfig } from "./create.js";
export { migrations, type Migration } from "./migrations.js";
export type { RestoreDevice } from "./last-states.js";
export type { MinuteCount, PositionRange } from "./pages.js";
export { historyPager, type HistoryPage, type HistoryPager, type HistoryPagerOptions } from "./pager.js";
export type { TrackTotals, TrackTotalsDevice, TrackTotalsQuery } from "./track-totals.js";
