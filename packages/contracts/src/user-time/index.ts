export { userClock, wallClockMs, type UserClock, type UserClockSettings } from "./clock.js";
export { parseRange, HistoryRangeFields, HistoryRangeQuerySchema, MAX_RANGE_DAYS, type HistoryRange, type HistoryRangeQuery } from "./range.js";
export { DST_SHIFT_MINUTES, nthWeekday, zoneOffsetMinutes } from "./dst.js";
