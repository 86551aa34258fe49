export const KM_PER_MILE = 1.609344;
export const FT_PER_M = 3.28084;

/** Rounds to `digits` decimals (a number, as the answers carry them). */
export const round = (n: number, digits = 0) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** A user's units of distance and altitude, and the conversions into them from km, km/h and m (the api's answers and the rules service's messages share them). */
export interface UserUnits {
  /** "km" or "mi". */
  distanceUnit: string;
  /** "kph" or "mph", as the live list spells them. */
  speedUnit: string;
  /** "m" or "ft". */
  altitudeUnit: string;
  distance(km: number): number;
  speed(kmh: number): number;
  altitude(m: number): number;
}

export function userUnits(user: { unitOfDistance: string; unitOfAltitude: string }): UserUnits {
  const miles = user.unitOfDistance === "mi";
  const feet = user.unitOfAltitude === "ft";
  return {
    distanceUnit: miles ? "mi" : "km",
    speedUnit: miles ? "mph" : "kph",
    altitudeUnit: feet ? "ft" : "m",
    distance: miles ? (km) => km / KM_PER_MILE : (km) => km,
    speed: miles ? (kmh) => kmh / KM_PER_MILE : (kmh) => kmh,
    altitude: feet ? (m) => m * FT_PER_M : (m) => m,
  };
}
