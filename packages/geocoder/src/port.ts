import { Type, type Static } from "@sinclair/typebox";

/**
 * A place as the geocoder port answers it: what the vendor's `address` definition holds, in
 * our own names and units (degrees as numbers). Fields the source does not know are "" (the
 * offline adapter knows no road, house or postcode). The API writes it in the vendor's shape.
 */
export const PlaceSchema = Type.Object({
  /** The source's id of the place, as text: Nominatim's place_id, or the GeoNames id offline. */
  id: Type.String(),
  /** The same id as a number. */
  placeId: Type.Integer({ minimum: 0 }),
  /** Where the place is (the town's centre offline), in degrees. */
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  /** The whole address on one line: Nominatim's display_name, or "Vilnius, LT" offline. */
  address: Type.String(),
  country: Type.String(),
  /** ISO 3166-1 alpha-2, upper case ("LT"), from either source. */
  countryCode: Type.String(),
  /** The first administrative level: a state, county or region. */
  state: Type.String(),
  /** The city, town or village. */
  city: Type.String(),
  road: Type.String(),
  /** The house number. */
  house: Type.String(),
  /** The postcode. */
  zip: Type.String(),
  /** What the place is: Nominatim's addresstype ("building", "road", "city"...), "city" offline. */
  type: Type.String(),
});
export type Place = Static<typeof PlaceSchema>;

export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * The geocoding port, wherever an `address` appears: reports with show_addresses, events,
 * the live list, and the vendor's address endpoints. Nominatim's API when GEOCODER_URL is
 * set, else the offline nearest-town lookup.
 *
 * It never rejects: a source that fails, is slow or answers nonsense resolves null (or [])
 * and logs why, so an address is left empty rather than a report failed.
 */
export interface Geocoder {
  readonly kind: "nominatim" | "offline";
  /** The address of a point; null when the source knows none there or did not answer. */
  reverse(p: LatLng): Promise<Place | null>;
  /** The best match for a text; null when there is none or the source did not answer. */
  search(q: string): Promise<Place | null>;
  /** Up to `limit` (default 10, at most 50) places whose names start with, or match, the text. */
  autocomplete(q: string, limit?: number): Promise<Place[]>;
}

/** The slice of a pino logger the geocoder needs. */
export interface GeocoderLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export const DEFAULT_AUTOCOMPLETE_LIMIT = 10;
export const MAX_AUTOCOMPLETE_LIMIT = 50;

/** `limit` as a whole number from 1 to MAX_AUTOCOMPLETE_LIMIT. */
export function autocompleteLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_AUTOCOMPLETE_LIMIT;
  return Math.min(MAX_AUTOCOMPLETE_LIMIT, Math.max(1, Math.floor(limit)));
}

/** Whether p is a point on the globe (finite, in range). */
export function isPoint(p: LatLng): boolean {
  return Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}
