import type { Attributes, HistoryRow } from "@fleet/contracts";

/** km per degree of latitude on the sphere @fleet/geo measures with (R = 6371.0088 km). */
const KM_PER_DEGREE_LAT = (6371.0088 * Math.PI) / 180;

export interface FixOptions {
  speedKmh?: number;
  engineOn?: boolean;
  attributes?: Attributes;
}

/**
 * Tracks with known answers, for tests: a vehicle heading due north from 54°N 25°E, one
 * fix every `everyS` seconds. Along a meridian the haversine distance is exact, so a
 * drive of `s` seconds at `v` km/h covers exactly v·s/3600 km.
 *
 *   const rows = new TrackBuilder(T0).fix().drive(300).stand(600).drive(300).gap(900).fix().drive(60).rows;
 */
export class TrackBuilder {
  readonly rows: HistoryRow[] = [];
  private t: number;
  private lat = 54;
  private nextId: number;

  constructor(
    start: number,
    private readonly opts: { deviceId?: number; everyS?: number; firstId?: number } = {},
  ) {
    this.t = start;
    this.nextId = opts.firstId ?? 1;
  }

  private get everyMs(): number {
    return (this.opts.everyS ?? 10) * 1000;
  }

  /** The time of the next fix the builder would write. */
  get now(): number {
    return this.t;
  }

  /** One fix at the current time and place (moving at 60 km/h with the engine on unless told). */
  fix(o: FixOptions = {}): this {
    this.rows.push({
      id: this.nextId++,
      deviceId: this.opts.deviceId ?? 1,
      uniqueId: `test-${this.opts.deviceId ?? 1}`,
      protocol: "osmand",
      latitude: this.lat,
      longitude: 25,
      altitude: 100,
      course: 0,
      fixTime: this.t,
      serverTime: this.t + 500,
      attributes: o.attributes ?? {},
      speedKmh: o.speedKmh ?? 60,
      distanceKm: 0,
      valid: true,
      engineOn: o.engineOn ?? true,
    });
    return this;
  }

  /** Drives for `seconds` at `speedKmh`: a fix every interval, each `speedKmh · interval` further north. */
  drive(seconds: number, speedKmh = 60, o: Omit<FixOptions, "speedKmh"> = {}): this {
    for (let s = this.everyMs; s <= seconds * 1000; s += this.everyMs) {
      this.t += this.everyMs;
      this.lat += (speedKmh * (this.everyMs / 3_600_000)) / KM_PER_DEGREE_LAT;
      this.fix({ ...o, speedKmh });
    }
    return this;
  }

  /**
   * A GPS spike: the next fix, driving on at `speedKmh`, reads `km` north of where the vehicle
   * is; the fixes after it go on from where it really is.
   */
  spike(km: number, speedKmh = 60): this {
    this.t += this.everyMs;
    this.lat += (speedKmh * (this.everyMs / 3_600_000)) / KM_PER_DEGREE_LAT;
    const real = this.lat;
    this.lat += km / KM_PER_DEGREE_LAT;
    this.fix({ speedKmh });
    this.lat = real;
    return this;
  }

  /**
   * Stands still for `seconds` measured between its first and last fix (the first one
   * interval after the fix before). Speed 0 and the engine running unless told.
   */
  stand(seconds: number, o: FixOptions = {}): this {
    for (let s = 0; s <= seconds * 1000; s += this.everyMs) {
      this.t += this.everyMs;
      this.fix({ speedKmh: 0, engineOn: true, ...o });
    }
    return this;
  }

  /**
   * No data for `seconds` after the last fix, the vehicle `km` further north meanwhile;
   * `fix()` after it writes the fix that ends the gap.
   */
  gap(seconds: number, km = 0): this {
    this.t += seconds * 1000;
    this.lat += km / KM_PER_DEGREE_LAT;
    return this;
  }
}
