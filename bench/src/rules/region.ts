/** Where bench:rules' geofences lie and its devices drive: about 110 × 95 km around Vilnius. */
export const REGION = { south: 54.2, north: 55.2, west: 24.5, east: 26.0 };

/** A seeded generator's next number in [0, 1) (testkit's seededRandom), so every run drives the same tracks. */
export type Rng = () => number;
