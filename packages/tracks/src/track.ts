import { KNOTS_TO_KMH, type RawPosition } from "@fleet/contracts";
import { trackOptions, type TrackInput, type TrackOptions } from "./options.js";
import { Plane, type LatLng } from "./plane.js";
import { Random } from "./random.js";
import { Vehicle } from "./vehicle.js";

/** A position as a device sends it to insert.php or POST /insert: speed in knots, times in epoch ms. */
export type TrackPosition = Omit<RawPosition, "id" | "serverTime">;

/** A position and when the device sends it (a late or repeated one after its fix time). */
export interface SentPosition {
  sentAt: number;
  position: TrackPosition;
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** A home for the vehicle, uniformly spread over a disc around the region's centre. */
function homeIn(rnd: Random, region: LatLng, radiusKm: number): LatLng {
  const r = radiusKm * 1000 * Math.sqrt(rnd.next());
  const a = rnd.between(0, 2 * Math.PI);
  return new Plane(region).toLatLng({ x: r * Math.sin(a), y: r * Math.cos(a) });
}

/**
 * One device's positions, deterministic from its seed, in the order it sends them: the
 * vehicle's movement sampled every report interval with GPS noise, minus stretches with no
 * data, plus the odd repeated position and the odd one that arrives after a later fix.
 * Endless: take as many as needed.
 */
export class Track {
  readonly options: TrackOptions;
  private readonly rnd: Random;
  /** Anomalies draw from a stream of their own, so changing their shares leaves the drive itself as it was. */
  private readonly noise: Random;
  private readonly vehicle: Vehicle;
  private readonly plane: Plane;
  /** Positions made but not yet sent, in the order they will be (by sentAt). */
  private readonly pending: SentPosition[] = [];
  private nextFix: number;
  private gapUntil = -Infinity;
  private inGap = false;
  private sat: number;
  private readonly pGap: number;
  private readonly pDuplicate: number;
  private readonly pLate: number;
  /** The maximum speed in knots as sent (two decimals), rounded down so that it never converts back above the maximum. */
  private readonly maxKnots: number;

  constructor(input: TrackInput) {
    this.options = trackOptions(input);
    const o = this.options;
    this.rnd = new Random(o.seed);
    this.noise = new Random(o.seed ^ 0x5bd1e995);
    this.plane = new Plane(o.home ?? homeIn(this.rnd, o.region, o.regionRadiusKm));
    this.vehicle = new Vehicle(o, this.rnd, o.startTime);
    this.nextFix = o.startTime;
    this.sat = this.noise.int(7, 12);
    // Stretches start at a rate that loses `gapShare` of the slots, given their mean length;
    // repeats and late ones are drawn per kept report so that they make their share of all sent.
    // A stretch of d ms drops ceil(d / interval) slots: on average half a slot more than d / interval.
    const meanGapSlots = (((o.gapSeconds[0] + o.gapSeconds[1]) / 2) * 1000) / o.intervalMs + 0.5;
    this.pGap = o.gapShare / (meanGapSlots * (1 - o.gapShare));
    this.pDuplicate = o.duplicateShare / (1 - o.duplicateShare);
    this.pLate = o.outOfOrderShare / (1 - o.duplicateShare);
    this.maxKnots = Math.floor((o.maxSpeedKmh / KNOTS_TO_KMH) * 100) / 100;
  }

  /** The next position the device sends. */
  next(): SentPosition {
    // Anything made later has sentAt ≥ its fix time ≥ nextFix, so what is due before that goes first.
    while (this.pending.length === 0 || this.pending[0]!.sentAt >= this.nextFix) this.report();
    return this.pending.shift()!;
  }

  /** When the next position is sent, without taking it. */
  peekSentAt(): number {
    while (this.pending.length === 0 || this.pending[0]!.sentAt >= this.nextFix) this.report();
    return this.pending[0]!.sentAt;
  }

  /** Samples the vehicle at the next report time, and queues what the device sends of it. */
  private report(): void {
    const t = this.nextFix;
    this.vehicle.advanceTo(t);
    const truth = this.vehicle.state();
    this.nextFix = t + (truth.ignition ? this.options.intervalMs : this.options.parkedIntervalMs);
    if (t < this.gapUntil) {
      this.inGap = true;
      return;
    }
    // A stretch with no data ends with a report: two stretches back to back would be one longer than configured.
    const afterGap = this.inGap;
    this.inGap = false;
    if (!afterGap && this.noise.chance(this.pGap)) {
      const [min, max] = this.options.gapSeconds;
      this.gapUntil = t + Math.round(this.noise.between(min, max) * 1000);
      return;
    }
    const position = this.sample(t, truth);
    const interval = this.nextFix - t;
    // Sent within the interval, as trackers send each fix when it is made.
    const sentAt = t + Math.floor(this.noise.between(0.02, 0.3) * interval);
    if (this.noise.chance(this.pLate)) {
      // Held back (a buffered fix, a retried request) until after the next one to three.
      // Past the window the next ones are sent in, so each of them goes first.
      this.enqueue({ sentAt: t + Math.floor((this.noise.int(1, 3) + 0.3) * interval), position });
    } else this.enqueue({ sentAt, position });
    if (this.noise.chance(this.pDuplicate)) this.enqueue({ sentAt: sentAt + Math.floor(this.noise.between(0.3, 0.6) * interval), position });
  }

  private sample(t: number, truth: ReturnType<Vehicle["state"]>): TrackPosition {
    const o = this.options;
    const jitter = () => this.noise.normal() * o.jitterM;
    const { lat, lng } = this.plane.toLatLng({ x: truth.position.x + jitter(), y: truth.position.y + jitter() });
    const moving = truth.speed > 0;
    // Speed noise only while moving: a standing vehicle's tracker reports 0.
    const kmh = moving ? Math.min(o.maxSpeedKmh, Math.max(0, truth.speed * 3.6 + this.noise.normal() * 0.4)) : 0;
    const course = moving ? (truth.heading + this.noise.normal() * 1.5 + 360) % 360 : truth.heading;
    if (this.noise.chance(0.1)) this.sat = Math.min(14, Math.max(4, this.sat + this.noise.int(-1, 1)));
    return {
      uniqueId: o.uniqueId,
      protocol: o.protocol,
      fixTime: t,
      latitude: round(lat, 6),
      longitude: round(lng, 6),
      altitude: round(truth.altitude + this.noise.normal() * 2, 1),
      speed: Math.min(round(kmh / KNOTS_TO_KMH, 2), this.maxKnots),
      course: round(course, 1),
      attributes: {
        ignition: truth.ignition,
        motion: kmh >= 1,
        sat: this.sat,
        power: round(truth.ignition ? this.noise.between(13.6, 14.3) : this.noise.between(12.3, 12.7), 2),
      },
    };
  }

  private enqueue(item: SentPosition): void {
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.sentAt > item.sentAt) i--;
    this.pending.splice(i, 0, item);
  }
}
