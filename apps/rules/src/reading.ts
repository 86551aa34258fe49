import type { EnrichedPosition } from "@fleet/contracts";
import { sensorValue } from "@fleet/sensors";
import type { DetectorInput } from "./detector.js";
import { customMatches } from "./detectors/custom.js";
import type { DeviceRules, RuleAlert, RuleCustomEvent, RuleUser } from "./model.js";

/**
 * Faster than any vehicle: a fix that implies it, measured from the device's fix before it,
 * is a GPS jump, and so is the fix after a jump on its way back (docs/decisions.md).
 */
const JUMP_KMH = 500;

function isJump(position: EnrichedPosition, previousFix: unknown): boolean {
  if (typeof previousFix !== "number" || position.fixTime <= previousFix) return false;
  return (position.distanceKm / (position.fixTime - previousFix)) * 3_600_000 > JUMP_KMH;
}

const NO_GEOFENCES: ReadonlySet<number> = new Set();
/** In no geofence: shared by every position outside all (most), never added to. */
const NOWHERE: number[] = [];

/**
 * What a detector reads, one object per evaluation, moved from alert to alert and position to
 * position rather than made for each pair (a hundred alerts times every position). What the
 * chain keeps per device (the previous fix's geofences, km driven, the last fuel level) is set
 * on it before the detectors run; the owners' geofences holding the position, the custom
 * events' matches and the fuel level are found once per position, when first asked.
 */
export class Reading implements DetectorInput {
  position!: EnrichedPosition;
  alert!: RuleAlert;
  owner!: RuleUser;
  jump = false;
  wasInside: ReadonlySet<number> = NO_GEOFENCES;
  odometerKm = 0;
  previousFuel: number | null = null;
  private readonly places = new Map<number, ReadonlySet<number>>();
  /** The last owner asked about and their answer: most devices have one owner, asked by dozens of alerts per position. */
  private placesOf = -1;
  private placesSet: ReadonlySet<number> = NO_GEOFENCES;
  private fuel: number | null | undefined;
  private readonly matched = new Map<RuleCustomEvent, boolean>();
  constructor(readonly device: DeviceRules) {}

  at(position: EnrichedPosition, previousFix: unknown): void {
    this.position = position;
    this.jump = isJump(position, previousFix);
    if (this.places.size > 0) this.places.clear();
    this.placesOf = -1;
    this.fuel = undefined;
    if (this.matched.size > 0) this.matched.clear();
  }

  readonly matches = (event: RuleCustomEvent): boolean => {
    let yes = this.matched.get(event);
    if (yes === undefined) this.matched.set(event, (yes = customMatches(event, this.position)));
    return yes;
  };

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
      return set.size === 0 ? NOWHERE : [...set];
    }
    return [...new Set(userIds.flatMap((id) => [...this.insideOf(id)]))].sort((a, b) => a - b);
  }

  private insideOf(userId: number): ReadonlySet<number> {
    if (userId === this.placesOf) return this.placesSet;
    let set = this.places.get(userId);
    if (!set) {
      const index = this.device.geofenceIndex.get(userId);
      const ids = index ? index.containing({ lat: this.position.latitude, lng: this.position.longitude }) : [];
      set = ids.length === 0 ? NO_GEOFENCES : new Set(ids);
      this.places.set(userId, set);
    }
    this.placesOf = userId;
    this.placesSet = set;
    return set;
  }
}
