import type { EnrichedPosition, HistoryRow, LiveState, RawPosition, TailPoint } from "@fleet/contracts";
import type { DeviceInfo } from "../handlers/device-directory.js";

/**
 * One position on its way through the tracker's position handlers. The batch steps give
 * what they found for it (its device, the device's live state, the fix before it); each
 * handler then adds its part, reading only what the handlers before it in the pipeline's
 * list added. Every field is set from the start (zeros until a handler sets it), so every
 * context has one shape and the handlers' reads stay monomorphic on the hot path.
 */
export interface PositionContext {
  readonly raw: RawPosition;
  readonly device: DeviceInfo;
  /** The device's live state before this position; none before its first. */
  readonly current: LiveState | undefined;
  /** The device's fix just before this one in time (never this one); none before its first. */
  readonly prev: TailPoint | undefined;
  /**
   * For a fix older than the device's whole tail, the fix just after it in time (found in
   * history or the batch), or null for one history already holds (a replay); undefined when the
   * tail tells, as it does for every other fix.
   */
  readonly next: TailPoint | null | undefined;

  /** km/h, to 0.01. */
  speedKmh: number;
  /** Newer than the device's latest fix (a first fix always is): it moves the live state's fix and running values. False only with a current state. */
  newest: boolean;
  /** The device's latest fix: the newest, or the latest one again (a replay). */
  latest: boolean;
  /** km from `prev`, to 1e-6. */
  distanceKm: number;
  // The running values below are the live state's after this position: a fix that is not the
  // newest leaves them as the current state holds them.
  odometerKm: number;
  engineOn: boolean;
  engineSeconds: number;
  /** The fix counts as moving (@fleet/sensors isMoving, the rule history and the rules service use). */
  moving: boolean;
  /** Epoch ms of the last fix at or above the device's moving speed. */
  movedAt: number;

  /** The device's live state after this position (the current one with the point in its tail, when not the newest). */
  state: LiveState | undefined;
  history: HistoryRow | undefined;
  enriched: EnrichedPosition | undefined;
}

/** Derives its part of a position from what the context holds so far. Synchronous and pure but for the context it writes. */
export type PositionHandler = (ctx: PositionContext) => void;

/** What the tracker keeps of a position once every handler ran. */
export interface Enriched {
  history: HistoryRow;
  enriched: EnrichedPosition;
  /** The device's live state after this position (unchanged fields when the fix is older). */
  state: LiveState;
}

/** A context with the batch's findings and nothing derived yet. */
export function positionContext(raw: RawPosition, device: DeviceInfo, current: LiveState | undefined, prev: TailPoint | undefined, next?: TailPoint | null): PositionContext {
  return {
    raw,
    device,
    current,
    prev,
    next,
    speedKmh: 0,
    newest: false,
    latest: false,
    distanceKm: 0,
    odometerKm: 0,
    engineOn: false,
    engineSeconds: 0,
    moving: false,
    movedAt: 0,
    state: undefined,
    history: undefined,
    enriched: undefined,
  };
}

/** Runs `handlers` in order on one position; throws if they left its live state, history row or enriched message unmade. */
export function runHandlers(handlers: readonly PositionHandler[], raw: RawPosition, device: DeviceInfo, current: LiveState | undefined, prev: TailPoint | undefined, next?: TailPoint | null): Enriched {
  const ctx = positionContext(raw, device, current, prev, next);
  for (const handle of handlers) handle(ctx);
  const { state, history, enriched } = ctx;
  if (!state || !history || !enriched) throw new Error("the position handlers made no live state, history row or enriched message");
  return { history, enriched, state };
}

/**
 * The fix as history rows, enriched positions and the live state all carry it. Built as a
 * literal and extended with Object.assign: the tracker makes three such objects per
 * position, and object spreads and rest copies cost several times more (enrich went from
 * ~13 to ~2.5 µs a position).
 */
export function fixFields(ctx: PositionContext) {
  const { raw } = ctx;
  return {
    deviceId: ctx.device.id,
    uniqueId: raw.uniqueId,
    protocol: raw.protocol,
    latitude: raw.latitude,
    longitude: raw.longitude,
    altitude: raw.altitude,
    course: raw.course,
    speedKmh: ctx.speedKmh,
    fixTime: raw.fixTime,
    serverTime: raw.serverTime,
    attributes: raw.attributes,
  };
}
