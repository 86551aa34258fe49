import { distanceKm } from "@fleet/geo";
import type { PositionHandler } from "./context.js";

/**
 * Distance from the fix before this one in time, and the odometer, which only the newest
 * fix moves. Rounded to 1e-6 km so a replay stores the same distance.
 */
export const distance: PositionHandler = (ctx) => {
  const { prev, raw, current } = ctx;
  const km = prev ? distanceKm({ lat: prev.latitude, lng: prev.longitude }, { lat: raw.latitude, lng: raw.longitude }) : 0;
  ctx.distanceKm = Math.round(km * 1e6) / 1e6;
  ctx.odometerKm = ctx.newest ? (current?.odometerKm ?? 0) + ctx.distanceKm : current!.odometerKm;
};
