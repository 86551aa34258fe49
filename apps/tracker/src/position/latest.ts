import { heldUntil } from "@fleet/contracts";
import type { PositionHandler } from "./context.js";

/**
 * Where the fix stands against the device's latest: only a later one moves the live state
 * (later than the latest's time, or than a minute past its arrival: contracts' heldUntil),
 * and an older one, or another at the same instant, goes to history alone (which keeps the
 * first of an instant too). The latest fix handled again (a replay) is still the latest,
 * though not newer, so it changes nothing twice.
 */
export const latest: PositionHandler = (ctx) => {
  const { current, raw } = ctx;
  ctx.newest = !current || (raw.fixTime > heldUntil(current) && raw.id !== current.positionId);
  ctx.latest = ctx.newest || current?.positionId === raw.id;
};
