import type { EnrichedPosition } from "@fleet/contracts";
import { fixFields, type PositionHandler } from "./context.js";

/** The positions.enriched message: the fix with what the rules service needs to judge it without a lookup. */
export const enrichedMessage: PositionHandler = (ctx) => {
  const message: EnrichedPosition = Object.assign(fixFields(ctx), {
    id: ctx.raw.id,
    distanceKm: ctx.distanceKm,
    userIds: ctx.device.userIds,
    latest: ctx.latest,
    engineOn: ctx.engineOn,
    moving: ctx.moving,
  });
  ctx.enriched = message;
};
