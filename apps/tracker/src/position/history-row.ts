import { knownAttribute, type HistoryRow } from "@fleet/contracts";
import { fixFields, type PositionHandler } from "./context.js";

/** The row history keeps of every fix, older ones too; identical on a replay, so writing it again changes nothing. */
export const historyRow: PositionHandler = (ctx) => {
  // Devices send `valid` as a boolean or as text; only an explicit false marks a fix invalid.
  const valid = knownAttribute(ctx.raw.attributes, "valid");
  const row: HistoryRow = Object.assign(fixFields(ctx), { id: ctx.raw.id, distanceKm: ctx.distanceKm, valid: valid !== false && valid !== "false", engineOn: ctx.engineOn });
  ctx.history = row;
};
