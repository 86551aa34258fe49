import type { EnrichedPosition } from "@fleet/contracts";
import { GPS_JUMP_KMH } from "@fleet/geo";
import { sensorValue } from "@fleet/sensors";
import type { DetectorInput } from "./detector.js";
import { customMatches } from "./detectors/custom.js";
import type { DeviceRules, RuleAlert, RuleCustomEvent, RuleUser } from "./model.js";

function isJump(position: EnrichedPosition, previousFix: unknown): boolean {
  if (typeof previousFix !== "number" || position.fixTime <= previousFix) return false;
  // The fix after a jump, on its way back, reads as one too (docs/decisions.md).
  return (position.distanceKm / (position.fixTime - previousFix)) * 3_600_000 > GPS_JUMP_KMH;
}

const NO_IDS: ReadonlySet<number> = new Set();
/** In no geofence, matching no custom event: shared by every position so (most), never added to. */
const NONE: number[] = [];

/**
 * What a detector reads, one object per evaluation, moved from alert to alert and position to
 * position rather than made for each pair (a hundred alerts times every position). What the
 * chain keeps per device (the previous fix's geofences and custom events, km driven, the last
 * fuel level) is set on it before the detectors run; the owners' geofences holding the
 * position and the fuel level are found once per position, when first asked, and the custom
 * events matching it once, by the chain (matchedAmong).
 */
export class Reading implements DetectorInput {
  position!: EnrichedPosition;
  alert!: RuleAlert;
  owner!: RuleUser;
  jump = false;
  wasInside: ReadonlySet<number> = NO_IDS;
  wasMatched: ReadonlySet<number> = NO_IDS;
  odometerKm = 0;
  previousFuel: number | null = null;
  /*
   * The geofences holding the position, per owner: the first owner asked in two fields (most
   * devices have one owner, asked by dozens of alerts per position), any other in a map,
   * emptied only when used (emptying a map costs more than a position's detectors).
   */
  private placesOf = -1;
  private placesSet: ReadonlySet<number> = NO_IDS;
  private readonly otherPlaces = new Map<number, ReadonlySet<number>>();
  /** The last search of an index, kept across positions (the reading lives as long as the device's rules). */
  private lastLookUp = { userId: -1, lat: NaN, lng: NaN, set: NO_IDS };
  private fuel: number | null | undefined;
  private matchedNow: readonly number[] = NONE;
  constructor(readonly device: DeviceRules) {}

  at(position: EnrichedPosition, previousFix: unknown): void {
    this.position = position;
    this.jump = isJump(position, previousFix);
    this.placesOf = -1;
    if (this.otherPlaces.size > 0) this.otherPlaces.clear();
    this.fuel = undefined;
    this.matchedNow = NONE;
  }

  /** Which of these custom events (ids, ascending) match the position, ascending; what `matches` answers from until the next position. */
  matchedAmong(ids: readonly number[]): readonly number[] {
    const { attributes } = this.position;
    const protocol = this.position.protocol.toLowerCase();
    let out: number[] | undefined;
    for (const id of ids) {
      const e = this.device.customEvents.get(id);
      if (e && customMatches(e, attributes, protocol)) (out ??= []).push(id);
    }
    return (this.matchedNow = out ?? NONE);
  }

  readonly matches = (event: RuleCustomEvent): boolean => this.matchedNow.includes(event.id);

  // Arrow fields, not methods: detectors take them out of the input (`{ inside }`).
  readonly fuelLevel = (): number | null => {
    if (this.fuel === undefined) {
      const sensor = this.device.fuelSensor;
      const value = sensor ? sensorValue(sensor, { attributes: this.position.attributes, speedKmh: this.position.speedKmh, odometerKm: 0, engineSeconds: 0 }) : null;
      this.fuel = typeof value === "number" ? value : null;
    }
    return this.fuel;
  };

  readonly inside = (): ReadonlySet<number> => this.insideOf(this.alert.userId);

  /** The ids of these users' geofences holding the position, ascending. */
  insideAll(userIds: readonly number[]): number[] {
    if (userIds.length === 1) {
      const set = this.insideOf(userIds[0]!);
      return set.size === 0 ? NONE : [...set];
    }
    return [...new Set(userIds.flatMap((id) => [...this.insideOf(id)]))].sort((a, b) => a - b);
  }

  private insideOf(userId: number): ReadonlySet<number> {
    if (userId === this.placesOf) return this.placesSet;
    if (this.placesOf === -1) {
      this.placesOf = userId;
      return (this.placesSet = this.lookUp(userId));
    }
    let set = this.otherPlaces.get(userId);
    if (!set) this.otherPlaces.set(userId, (set = this.lookUp(userId)));
    return set;
  }

  private lookUp(userId: number): ReadonlySet<number> {
    const { latitude: lat, longitude: lng } = this.position;
    // A parked vehicle reports the same fix again and again: the same geofences hold it.
    if (userId === this.lastLookUp.userId && lat === this.lastLookUp.lat && lng === this.lastLookUp.lng) return this.lastLookUp.set;
    const index = this.device.geofenceIndex.get(userId);
    const ids = index ? index.containing({ lat, lng }) : [];
    const set = ids.length === 0 ? NO_IDS : new Set(ids);
    this.lastLookUp = { userId, lat, lng, set };
    return set;
  }
}
