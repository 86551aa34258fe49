import type { PositionHandler } from "./context.js";
import { before } from "./order.js";

/**
 * Where the fix stands against the device's latest: only a newer one moves the live state,
 * and a late, older one goes to history alone. The latest fix handled again (a replay) is
 * still the latest, though not newer, so it changes nothing twice.
 */
export const latest: PositionHandler = (ctx) => {
  const { current, raw } = ctx;
  ctx.newest = !current || before({ fixTime: current.fixTime, id: current.positionId }, raw);
  ctx.latest = ctx.newest || current?.positionId === raw.id;
};
