import type { Segmentation } from "@fleet/trips";
import { runsWhere, type Run } from "./runs.js";

/**
 * The track's overspeeds: each maximal run of consecutive points above the limit, however
 * long the device stayed above (as the overspeed alert counts a rise once). A track that
 * starts above the limit starts with one.
 */
export function overspeedRuns(track: Segmentation, limitKmh: number): Run[] {
  return runsWhere(track.points.length, (i) => track.points[i]!.speedKmh > limitKmh);
}

/**
 * The track's underspeeds: each maximal run of consecutive moving points below the limit. A
 * standing point ends one, so waiting at a light or parking is never driving too slowly.
 */
export function underspeedRuns(track: Segmentation, limitKmh: number): Run[] {
  return runsWhere(track.points.length, (i) => track.moving[i]! && track.points[i]!.speedKmh < limitKmh);
}

/** How many times the track went above the limit; none without a limit. */
export function overspeedCount(track: Segmentation, limitKmh: number | null): number {
  return limitKmh === null ? 0 : overspeedRuns(track, limitKmh).length;
}
