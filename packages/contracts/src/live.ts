import { Type, type Static } from "@sinclair/typebox";
import { FixFields } from "./position.js";

export const TailPointSchema = Type.Object({
  id: Type.Integer(),
  fixTime: Type.Integer(),
  latitude: Type.Number(),
  longitude: Type.Number(),
});
export type TailPoint = Static<typeof TailPointSchema>;

/** How many recent points a device's live state keeps, oldest first. */
export const TAIL_MAX = 30;

/**
 * The longest step between two fixes that counts as engine time when the engine ran at both:
 * past an hour without data what the engine did is unknown (a tracker that lost power driving
 * and came back driving three days later added 72 engine hours). The tracker, the restore from
 * history and the history cuts all count by it.
 */
export const ENGINE_STEP_MAX_MS = 3_600_000;

/**
 * How far past its arrival a fix's time may run and still hold off the fixes after it, in the
 * tracker's latest fix and the rules service's. A device's clock that jumps a day ahead once
 * would otherwise make every true fix after it "older" until that day came: its live position
 * frozen, its alerts silent (a probe's device missed an SOS so).
 */
export const CLOCK_AHEAD_MS = 60_000;

/**
 * The time a fix later than this one must pass: its own, or no more than its arrival plus
 * CLOCK_AHEAD_MS. A live state's arrival is `arrivedAt` (its serverTime is the last contact,
 * which later fixes taken as older move on: held from it, the hold would never end).
 */
export const heldUntil = (fix: { fixTime: number; serverTime: number; arrivedAt?: number }): number => Math.min(fix.fixTime, (fix.arrivedAt ?? fix.serverTime) + CLOCK_AHEAD_MS);

/** What the live store holds per device: its newest fix and a short tail of recent points. */
export const LiveStateSchema = Type.Object({
  deviceId: Type.Integer(),
  positionId: Type.Integer(),
  ...FixFields,
  speedKmh: Type.Number({ description: "km/h" }),
  /** Epoch ms of the last fix at which the device was moving. */
  movedAt: Type.Integer(),
  /** Running GPS distance in km, summed by the tracker. */
  odometerKm: Type.Number(),
  /** Whether the engine was on at the latest fix (the device's ignition/acc/engine sensor, else motion). */
  engineOn: Type.Optional(Type.Boolean()),
  /** Running engine-on time in seconds, summed by the tracker between fixes with the engine on. Absent in states written before it existed. */
  engineSeconds: Type.Optional(Type.Number()),
  /**
   * Epoch ms the latest fix arrived; `serverTime` is the device's last contact, which an older
   * fix arriving later moves too. Absent in states written before it existed (serverTime then).
   */
  arrivedAt: Type.Optional(Type.Integer()),
  tail: Type.Array(TailPointSchema),
});
export type LiveState = Static<typeof LiveStateSchema>;
