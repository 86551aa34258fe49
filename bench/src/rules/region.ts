import { seededRandom } from "@fleet/testkit";

/** Where bench:rules' geofences lie and its devices drive: about 110 × 95 km around Vilnius. */
export const REGION = { south: 54.2, north: 55.2, west: 24.5, east: 26.0 };

export type Rng = () => number;

/** A seeded generator, so every run drives the same tracks through the same geofences. */
export const random = (seed: number): Rng => seededRandom(seed);
