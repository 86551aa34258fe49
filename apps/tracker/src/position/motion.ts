import { isMoving } from "@fleet/sensors";
import type { PositionHandler } from "./context.js";

/**
 * Motion, two ways. `moving` is the rule history's groups and the rules service share,
 * which asks the engine state of a device with an engine sensor, so this runs after the
 * engine handler. `movedAt` (the newest fix's, for the live list) goes by speed alone, at
 * or above the device's moving speed, as the live list always has.
 */
export const motion: PositionHandler = (ctx) => {
  const { device, current, raw } = ctx;
  ctx.moving = isMoving(ctx.speedKmh, device.minMovingSpeed, { hasSensor: device.engineSensor !== undefined, on: ctx.engineOn });
  if (!ctx.newest) ctx.movedAt = current!.movedAt;
  else ctx.movedAt = ctx.speedKmh >= device.minMovingSpeed ? raw.fixTime : (current?.movedAt ?? raw.fixTime);
};
