import type { TrackOptions } from "./options.js";
import { unit, type Point } from "./plane.js";
import type { Random } from "./random.js";
import { Streets, type Leg } from "./streets.js";

/** What the vehicle really does at an instant: the truth the tracker's report is a noisy sample of. */
export interface VehicleState {
  position: Point;
  /** m/s */
  speed: number;
  heading: number;
  altitude: number;
  ignition: boolean;
}

/**
 * parked: ignition off. idle: ignition on, standing (warming up, or just arrived).
 * driving: along the streets. waiting: at a red light, engine running.
 */
type Phase = "parked" | "idle" | "driving" | "waiting";

/** Speed through a junction by how sharply the street turns, m/s. */
const CORNER_SPEED: Record<number, number> = { 0: Infinity, 45: 35 / 3.6, 90: 20 / 3.6, 135: 12 / 3.6 };

const turnOf = (from: number, to: number) => {
  const d = Math.abs(to - from) % 360;
  return d > 180 ? 360 - d : d;
};

/** The terrain's height at a point: gentle hills, so altitude changes as the vehicle drives. */
const terrain = (p: Point) => 120 + 25 * Math.sin(p.x / 1800) * Math.cos(p.y / 2300) + 8 * Math.sin((p.x + p.y) / 700);

/**
 * One vehicle's movement through time: trips along generated streets with acceleration,
 * braking for turns and red lights, and parking with the ignition off. Time moves forward
 * only, in steps of at most a second while driving.
 */
export class Vehicle {
  private phase: Phase;
  private phaseEnds: number;
  /** After idling: drive off, or switch the ignition off and park. */
  private afterIdle: "drive" | "park" = "drive";
  private leg: Leg;
  private next: Leg;
  private cruise: number;
  private nextCruise: number;
  private along = 0;
  private speed = 0;
  private accel: number;
  private tripEnds = 0;
  /** Whether the current leg ends where the vehicle parks. */
  private parkAtEnd = false;
  private readonly streets: Streets;

  constructor(
    private readonly o: TrackOptions,
    private readonly rnd: Random,
    private t: number,
  ) {
    this.streets = new Streets(rnd, o.roamRadiusKm * 1000);
    this.leg = this.streets.first({ x: 0, y: 0 }, rnd.int(0, 3) * 90);
    this.next = this.streets.next(this.leg);
    this.cruise = this.cruiseOn(this.leg);
    this.nextCruise = this.cruiseOn(this.next);
    this.accel = rnd.between(o.accelMs2[0], o.accelMs2[1]);
    if (o.startParked) {
      // Part of a parking spell already over, so a fleet started together does not leave together.
      this.phase = "parked";
      this.phaseEnds = t + Math.round(this.minutes(o.parkMinutes) * rnd.between(0.1, 1));
    } else {
      this.phase = "idle";
      this.phaseEnds = t + this.seconds(o.idleSeconds);
    }
  }

  get time(): number {
    return this.t;
  }

  get ignition(): boolean {
    return this.phase !== "parked";
  }

  /** Moves the vehicle on to `until` (epoch ms, not before its current time). */
  advanceTo(until: number): void {
    while (this.t < until) {
      if (this.phase === "driving") {
        const dtMs = Math.min(1000, until - this.t);
        this.drive(dtMs / 1000);
        this.t += dtMs;
      } else if (this.phaseEnds > until) {
        this.t = until;
      } else {
        this.t = this.phaseEnds;
        this.endPhase();
      }
    }
  }

  state(): VehicleState {
    const u = unit(this.leg.heading);
    const position = { x: this.leg.from.x + u.x * this.along, y: this.leg.from.y + u.y * this.along };
    return { position, speed: this.speed, heading: this.leg.heading, altitude: terrain(position), ignition: this.ignition };
  }

  private endPhase(): void {
    switch (this.phase) {
      case "parked":
        this.phase = "idle";
        this.afterIdle = "drive";
        this.phaseEnds = this.t + this.seconds(this.o.idleSeconds);
        return;
      case "idle":
        if (this.afterIdle === "park") {
          this.phase = "parked";
          this.phaseEnds = this.t + this.minutes(this.o.parkMinutes);
          return;
        }
        this.tripEnds = this.t + this.minutes(this.o.tripMinutes);
        this.accel = this.rnd.between(this.o.accelMs2[0], this.o.accelMs2[1]);
        this.depart();
        return;
      case "waiting":
        this.depart();
        return;
      case "driving":
        return;
    }
  }

  /** Drives off from where the vehicle stands: from the junction it stopped at, onto the next street. */
  private depart(): void {
    this.phase = "driving";
    if (this.along >= this.leg.lengthM) this.enterNextLeg();
  }

  private enterNextLeg(): void {
    this.leg = this.next;
    this.cruise = this.nextCruise;
    this.next = this.streets.next(this.leg);
    this.nextCruise = this.cruiseOn(this.next);
    this.along = 0;
    this.parkAtEnd = this.t >= this.tripEnds;
  }

  /** The speed to reach the end of the current leg with, m/s: 0 where the vehicle stops there. */
  private endSpeed(): number {
    if (this.leg.trafficStop || this.parkAtEnd) return 0;
    const corner = CORNER_SPEED[turnOf(this.leg.heading, this.next.heading)] ?? 0;
    // Looking one street ahead: slow enough to stop in time where that short street ends in a stop.
    const beyond = this.next.trafficStop ? Math.sqrt(2 * this.o.brakeMs2 * this.next.lengthM) : Infinity;
    return Math.min(corner, this.nextCruise, beyond);
  }

  private drive(dt: number): void {
    let remaining = this.leg.lengthM - this.along;
    const end = this.endSpeed();
    const allowed = Math.sqrt(end * end + 2 * this.o.brakeMs2 * remaining);
    const target = Math.min(this.cruise, allowed);
    this.speed = this.speed < target ? Math.min(target, this.speed + this.accel * dt) : Math.max(target, this.speed - 2 * this.o.brakeMs2 * dt);
    let move = this.speed * dt;
    while (move >= remaining) {
      if (end === 0) {
        this.along = this.leg.lengthM;
        this.speed = 0;
        this.stopAtJunction();
        return;
      }
      move -= remaining;
      this.enterNextLeg();
      remaining = this.leg.lengthM;
    }
    this.along += move;
  }

  private stopAtJunction(): void {
    if (this.parkAtEnd) {
      this.phase = "idle";
      this.afterIdle = "park";
      this.phaseEnds = this.t + this.seconds(this.o.idleSeconds);
    } else {
      this.phase = "waiting";
      this.phaseEnds = this.t + this.seconds(this.o.trafficStopSeconds);
    }
  }

  /** A driver's speed on a street: around its limit (traffic, habit), never above the vehicle's maximum. */
  private cruiseOn(leg: Leg): number {
    return Math.min(leg.limitKmh * this.rnd.between(0.75, 1.08), this.o.maxSpeedKmh) / 3.6;
  }

  private seconds([min, max]: readonly [number, number]): number {
    return Math.round(this.rnd.between(min, max) * 1000);
  }

  private minutes([min, max]: readonly [number, number]): number {
    return Math.round(this.rnd.between(min, max) * 60_000);
  }
}
