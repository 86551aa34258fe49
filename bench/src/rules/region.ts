/** Where bench:rules' geofences lie and its devices drive: about 110 × 95 km around Vilnius. */
export const REGION = { south: 54.2, north: 55.2, west: 24.5, east: 26.0 };

export type Rng = () => number;

/** A seeded generator (mulberry32), so every run drives the same tracks through the same geofences. */
export function random(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
