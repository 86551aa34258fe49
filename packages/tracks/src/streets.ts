import { normalizeHeading, unit, type Point } from "./plane.js";
import type { Random } from "./random.js";

/** One straight street between two junctions. */
export interface Leg {
  from: Point;
  /** Degrees, a multiple of 45: a grid of streets with the odd diagonal avenue. */
  heading: number;
  lengthM: number;
  limitKmh: number;
  /** Whether the junction ending this leg makes the vehicle stop (a red light, a give-way). */
  trafficStop: boolean;
}

/** Street classes: speed limit, block length, how often a junction stops traffic, how common. */
const CLASSES = [
  { limitKmh: 30, blockM: [80, 220], stopShare: 0.12, weight: 2 },
  { limitKmh: 50, blockM: [150, 500], stopShare: 0.3, weight: 5 },
  { limitKmh: 70, blockM: [400, 1500], stopShare: 0.25, weight: 2 },
  { limitKmh: 90, blockM: [1000, 4000], stopShare: 0.05, weight: 1 },
] as const;
type StreetClass = (typeof CLASSES)[number];

const TURNS: readonly (readonly [number, number])[] = [
  [0, 0.5],
  [-90, 0.21],
  [90, 0.21],
  [-45, 0.04],
  [45, 0.04],
];

export const legEnd = (leg: Leg): Point => {
  const u = unit(leg.heading);
  return { x: leg.from.x + u.x * leg.lengthM, y: leg.from.y + u.y * leg.lengthM };
};

/**
 * Streets generated as the vehicle reaches them: at each junction it goes straight or turns,
 * onto a street of some class. Beyond `roamRadiusM` from home it mostly takes the turn
 * that heads back, so a month of driving stays in one region.
 */
export class Streets {
  constructor(
    private readonly rnd: Random,
    private readonly roamRadiusM: number,
  ) {}

  first(from: Point, heading: number): Leg {
    return this.leg(from, heading, this.rnd.weighted(CLASSES.map((c) => [c, c.weight] as const)));
  }

  /** The street taken at the junction ending `prev`. */
  next(prev: Leg): Leg {
    const from = legEnd(prev);
    const heading = this.turn(prev.heading, from);
    const cls = heading === prev.heading && this.rnd.chance(0.6) ? classOf(prev) : this.rnd.weighted(CLASSES.map((c) => [c, c.weight] as const));
    return this.leg(from, heading, cls);
  }

  private turn(heading: number, at: Point): number {
    const away = Math.hypot(at.x, at.y);
    if (away > this.roamRadiusM && this.rnd.chance(0.8)) {
      // The candidate that points most towards home (never a U-turn).
      let best = heading;
      let bestDot = Infinity;
      for (const [t] of TURNS) {
        const u = unit(normalizeHeading(heading + t));
        const dot = (u.x * at.x + u.y * at.y) / away;
        if (dot < bestDot) [best, bestDot] = [normalizeHeading(heading + t), dot];
      }
      return best;
    }
    return normalizeHeading(heading + this.rnd.weighted(TURNS));
  }

  private leg(from: Point, heading: number, cls: StreetClass): Leg {
    return { from, heading, lengthM: this.rnd.between(cls.blockM[0], cls.blockM[1]), limitKmh: cls.limitKmh, trafficStop: this.rnd.chance(cls.stopShare) };
  }
}

const classOf = (leg: Leg): StreetClass => CLASSES.find((c) => c.limitKmh === leg.limitKmh) ?? CLASSES[1];
