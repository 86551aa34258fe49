import type { HistoryRow } from "@fleet/contracts";

/** The vendor's history group statuses (`item_class` ids). */
export const GroupStatus = { drive: 1, stop: 2, start: 3, end: 4, event: 5 } as const;
export type GroupStatusId = (typeof GroupStatus)[keyof typeof GroupStatus];

/** The vendor's default minimum stop length (`stops`, seconds) in ms. */
export const DEFAULT_MIN_STOP_MS = 180_000;

/**
 * A step longer than this is a gap in the data, not a fix of a drive: trackers send a fix every
 * few seconds (at most about 30) while they move, and a heartbeat every few minutes while
 * parked. A gap crossed no faster than the device moves was spent standing, however short the
 * report's minimum stop is.
 */
export const GAP_MS = 60_000;

/**
 * A gap with no data at least this long is spent standing whatever lies across it: Traccar's
 * `stopGap`. A shorter gap longer than a stop is standing only when the device covered it no
 * faster than it moves (see TrackFacts.still).
 */
export const STOP_GAP_MS = 3_600_000;

/** What a device's track is cut by; every unit is the platform's own (km/h, ms). */
export interface SegmentOptions {
  /** km/h: a fix is moving only above it (the device's `min_moving_speed`). */
  minMovingSpeedKmh: number;
  /**
   * Whether the device tells its engine state by a sensor (ignition, acc, engine). Without
   * one the engine counts as on for motion, so speed alone decides.
   */
  hasEngineSensor: boolean;
  /** Minimum stop length in ms; a stationary spell shorter than it stays in its drive. */
  minStopMs?: number;
  /** The engine-hours sensor's reading at a fix, in hours; absent when the device has none. */
  engineHoursAt?: (row: HistoryRow) => number | null;
  /**
   * The fuel level at a fix from the device's fuel sensor, the rise that counts as a filling and
   * the fall while standing that counts as a theft (the device's min_fuel_fillings and
   * min_fuel_thefts).
   */
  fuel?: { levelAt: (row: HistoryRow) => number | null; minFilling: number; minTheft: number };
  /** The driver card (RFID) a fix carries, if any. */
  driverKeyAt?: (row: HistoryRow) => string | null;
}

/** What a group took: the sums a report or a history screen shows. */
export interface GroupStats {
  startMs: number;
  endMs: number;
  durationMs: number;
  distanceKm: number;
  topSpeedKmh: number;
  /** Distance over duration; 0 for a group without duration. */
  averageSpeedKmh: number;
  /** Engine time while moving. */
  engineWorkMs: number;
  /** Engine time while standing. */
  engineIdleMs: number;
  /** Engine time: engine-hours sensor differences where it reads, else time with the engine on. */
  engineHoursMs: number;
  /** Fuel used in the fuel sensor's unit, fillings left out; 0 without a fuel sensor. */
  fuelConsumed: number;
  /** The driver card in effect at the group's start (else the first read in it), null when none. */
  driverKey: string | null;
}

/**
 * One group of the track. `first` and `last` index the segmentation's `points`; a drive
 * and the stop next to it share the fix where one turns into the other, so a client
 * drawing each group's points draws one unbroken line.
 */
export interface Group extends GroupStats {
  status: GroupStatusId;
  first: number;
  last: number;
}

export interface Segmentation<R extends HistoryRow = HistoryRow> {
  /** The fixes in time order, each once. */
  points: R[];
  /** km from the point before in `points` (0 for the first). */
  stepKm: number[];
  /** Whether each point is moving: engine on (or no engine sensor) and speed above the minimum. */
  moving: boolean[];
  /** Start, then drives and stops in time order, then end; empty for an empty track. */
  groups: Group[];
  totals: {
    distanceKm: number;
    topSpeedKmh: number;
    driveMs: number;
    stopMs: number;
    engineWorkMs: number;
    engineIdleMs: number;
    engineHoursMs: number;
    fuelConsumed: number;
  };
}
