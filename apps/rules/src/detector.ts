import type { EnrichedPosition, EventTypeName } from "@fleet/contracts";
import type { DeviceRules, RuleAlert, RuleCustomEvent, RuleUser } from "./model.js";

/*
 * The rules service's chain is a list of detectors, one per alert type, each a pure
 * function of one position, the alert, and what it remembered from the device's previous
 * positions (Traccar's event handlers, with their state passed in and out rather than kept
 * in the device session, so it can live in the live store across restarts and rebalances).
 */

/** An event a detector found at a position; the service turns it into an events row. */
export interface Detection {
  type: EventTypeName;
  /** In the owner's units and language (messages.ts); a custom event's is its owner's own text. */
  message: string;
  geofenceId?: number;
  /**
   * Tells two detections of one alert at one position apart (two geofences entered at once);
   * part of the event's dedupe key, so a replayed position records nothing new.
   */
  key?: string;
  /**
   * For an event of an episode rather than of a position (a stop longer than the limit):
   * names the episode (its start), and the dedupe key is the episode's, so the position
   * that crossed the limit and a sweep that saw it first record one event between them.
   */
  episode?: number;
  /** What the event measured, for its webhook's `event.attributes` (Traccar's: an overspeed's speed and speedLimit), in the owner's units. */
  attributes?: Readonly<Record<string, number>>;
}

/** What a detector reads about a position besides its memory. */
export interface DetectorInput {
  position: EnrichedPosition;
  alert: RuleAlert;
  device: DeviceRules;
  owner: RuleUser;
  /** The ids of the owner's named geofences holding the position (computed once per position and owner). */
  inside(): ReadonlySet<number>;
  /**
   * The ids of the geofences (all the device's owners') that held the device's previous
   * position: kept by the chain for the geofence detectors, which it runs only when the set
   * changes.
   */
  wasInside: ReadonlySet<number>;
  /** Whether the custom event's conditions hold at the position (customMatches): one of those the chain found matching it. */
  matches(event: RuleCustomEvent): boolean;
  /**
   * The ids of the custom events (those the device's custom alerts name) that matched the
   * device's previous position: kept by the chain for the custom detectors, which it runs
   * only when the set changes or an `always` event matches.
   */
  wasMatched: ReadonlySet<number>;
  /** The device's fuel level sensor's reading at the position, or null (no sensor, no number); read once per position. */
  fuelLevel(): number | null;
  /** The fix implies a speed no vehicle reaches from the device's previous one: a GPS jump, or the fix after one. */
  jump: boolean;
  /** km the device has driven, this position included, since the chain first kept its state (for distance alerts). */
  odometerKm: number;
  /** The fuel level at the device's previous position that read one, or null (for fuel alerts). */
  previousFuel: number | null;
}

export interface DetectorResult<S> {
  events: readonly Detection[];
  /**
   * The memory for the device's next position; undefined forgets it. A detector whose memory
   * did not change answers UNCHANGED.
   */
  next: S | undefined;
}

/**
 * One alert type's check. `previous` is undefined the first time an alert sees a device
 * (a new alert, a new device, a lost live store): detectors then learn the current state
 * without firing, so a new alert does not report every vehicle already inside a zone as
 * entering it (docs/decisions.md, "rules: first sight").
 */
export type Detector<S = unknown> = (input: DetectorInput, previous: S | undefined) => DetectorResult<S>;

export const NO_EVENTS: readonly Detection[] = Object.freeze([]);

/**
 * Nothing found, and the memory stays as the detector was given it: the common case, one
 * shared result rather than one made per alert and position. The chain tells it by identity.
 */
export const UNCHANGED: DetectorResult<never> = Object.freeze({ events: NO_EVENTS, next: undefined });

/** Nothing found; the memory becomes `next` (UNCHANGED when that is the memory the detector was given). */
export const quiet = <S>(next: S | undefined, previous?: S): DetectorResult<S> => (next === previous ? UNCHANGED : { events: NO_EVENTS, next });
