import { Type, type Static } from "@sinclair/typebox";
import { FixFields, TrackedFields } from "./position.js";

/** One row of position history, as the history store writes and reads it. */
export const HistoryRowSchema = Type.Object({
  id: Type.Integer(),
  ...FixFields,
  ...TrackedFields,
  valid: Type.Boolean(),
  /** Whether the engine ran at this fix, as the tracker decided it (the device's engine sensor, else motion). */
  engineOn: Type.Boolean(),
});
export type HistoryRow = Static<typeof HistoryRowSchema>;
