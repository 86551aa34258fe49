import type { Segmentation } from "@fleet/trips";

/**
 * How many times the track went above the limit: each rise from the limit or below to above
 * it counts once, however long the device stayed above (as the overspeed alert counts).
 */
export function overspeedCount(track: Segmentation, limitKmh: number | null): number {
  if (limitKmh === null) return 0;
  let count = 0;
  let over = false;
  for (const p of track.points) {
    const now = p.speedKmh > limitKmh;
    if (now && !over) count++;
    over = now;
  }
  return count;
}
