import { KNOTS_TO_KMH } from "@fleet/contracts";
import type { PositionHandler } from "./context.js";

/** Devices send knots; everything from the tracker on is km/h, rounded to 0.01 so a replay stores the same number. */
export const speed: PositionHandler = (ctx) => {
  ctx.speedKmh = Math.round(ctx.raw.speed * KNOTS_TO_KMH * 100) / 100;
};
