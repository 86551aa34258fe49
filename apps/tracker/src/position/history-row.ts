import { isValidFix, type HistoryRow } from "@fleet/contracts";
import { fixFields, type PositionHandler } from "./context.js";

/** The row history keeps of every fix, older ones too; identical on a replay, so writing it again changes nothing. */
export const historyRow: PositionHandler = (ctx) => {
  const row: HistoryRow = Object.assign(fixFields(ctx), { id: ctx.raw.id, distanceKm: ctx.distanceKm, valid: isValidFix(ctx.raw.attributes), engineOn: ctx.engineOn });
  ctx.history = row;
};
