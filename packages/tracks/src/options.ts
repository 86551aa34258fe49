import type { LatLng } from "./plane.js";

/** A closed range [min, max]. */
export type Range = readonly [number, number];

/** How one simulated vehicle drives and how its tracker reports. Every field but the first three has a default. */
export interface TrackOptions {
  /** The same seed and options give the same positions, byte for byte. */
  seed: number;
  uniqueId: string;
  /** Epoch ms of the first fix. */
  startTime: number;
  protocol: string;
  /** Where the vehicle lives (its first parking place); derived from the seed around `region` if unset. */
  home?: LatLng;
  /** The centre of the area homes are spread over, and how far (km). */
  region: LatLng;
  regionRadiusKm: number;
  /** Beyond this distance from home the vehicle mostly turns back. */
  roamRadiusKm: number;
  /** Report interval while the ignition is on, and while it is off. */
  intervalMs: number;
  parkedIntervalMs: number;
  maxSpeedKmh: number;
  /** m/s², the gentlest and firmest a driver speeds up; braking plans with `brakeMs2`. */
  accelMs2: Range;
  brakeMs2: number;
  /** Minutes of driving before the vehicle looks for a place to park, and how long it stays parked (ignition off). */
  tripMinutes: Range;
  parkMinutes: Range;
  /** Seconds stopped at a red light or give-way, engine running; kept under 3 minutes, a stop shorter than the default stop threshold. */
  trafficStopSeconds: Range;
  /** Seconds idling with the ignition on before driving off and after arriving. */
  idleSeconds: Range;
  /** Whether the first fix finds the vehicle parked (else it is about to drive off). */
  startParked: boolean;
  /** Standard deviation of GPS noise on each axis, metres. */
  jitterM: number;
  /** Share of report slots lost in stretches with no data, and how long one stretch lasts. */
  gapShare: number;
  gapSeconds: Range;
  /** Share of sent positions that repeat one already sent. */
  duplicateShare: number;
  /** Share of sent positions that arrive after a later fix of the same device. */
  outOfOrderShare: number;
}

export type TrackInput = Pick<TrackOptions, "seed" | "uniqueId" | "startTime"> & Partial<TrackOptions>;

export const TRACK_DEFAULTS: Omit<TrackOptions, "seed" | "uniqueId" | "startTime"> = {
  protocol: "osmand",
  region: { lat: 54.6872, lng: 25.2797 },
  regionRadiusKm: 20,
  roamRadiusKm: 15,
  intervalMs: 10_000,
  parkedIntervalMs: 10_000,
  maxSpeedKmh: 120,
  accelMs2: [1.0, 2.2],
  brakeMs2: 2.5,
  tripMinutes: [10, 90],
  parkMinutes: [20, 480],
  trafficStopSeconds: [10, 150],
  idleSeconds: [10, 90],
  startParked: false,
  jitterM: 3,
  gapShare: 0.01,
  gapSeconds: [30, 600],
  duplicateShare: 0.005,
  outOfOrderShare: 0.005,
};

/** The options with defaults filled in; throws a RangeError naming the first field out of range. */
export function trackOptions(input: TrackInput): TrackOptions {
  const o: TrackOptions = { ...TRACK_DEFAULTS, ...input };
  const share = (name: keyof TrackOptions, v: number) => {
    if (!(v >= 0 && v < 0.5)) throw new RangeError(`${name} must be in [0, 0.5), got ${v}`);
  };
  const positive = (name: keyof TrackOptions, v: number) => {
    if (!(v > 0 && Number.isFinite(v))) throw new RangeError(`${name} must be a positive number, got ${v}`);
  };
  const range = (name: keyof TrackOptions, [min, max]: Range) => {
    if (!(min > 0 && max >= min && Number.isFinite(max))) throw new RangeError(`${name} must be [min, max] with 0 < min ≤ max, got [${min}, ${max}]`);
  };
  share("gapShare", o.gapShare);
  share("duplicateShare", o.duplicateShare);
  share("outOfOrderShare", o.outOfOrderShare);
  for (const k of ["intervalMs", "parkedIntervalMs", "maxSpeedKmh", "brakeMs2", "roamRadiusKm"] as const) positive(k, o[k]);
  for (const k of ["accelMs2", "tripMinutes", "parkMinutes", "trafficStopSeconds", "idleSeconds", "gapSeconds"] as const) range(k, o[k]);
  if (o.trafficStopSeconds[1] >= 180) throw new RangeError("trafficStopSeconds must stay under 180 s: a longer stop is a stop, not traffic");
  if (!Number.isSafeInteger(o.startTime)) throw new RangeError(`startTime must be epoch ms, got ${o.startTime}`);
  if (o.jitterM < 0) throw new RangeError(`jitterM must not be negative, got ${o.jitterM}`);
  return o;
}
