import { InvalidInputError, NotFoundError, type Address, type AddressLocationResponse, type AddressPointQuery } from "@fleet/contracts";
import type { Db, User } from "@fleet/db";
import type { Geocoder, Place } from "@fleet/geocoder";
import { pointIn } from "./geofences.js";

/*
 * The vendor's address endpoints over the geocoder port. The port never rejects: a source
 * that failed or was slow answers as one that knows nothing, so these endpoints cannot tell
 * the two apart either (the geocoder logs the failure).
 */

const WHAT = "Address";
/** How many places address/autocomplete offers. */
export const AUTOCOMPLETE_LIMIT = 10;

/** A place in the vendor's `address` shape: snake_case, coordinates as text. */
export function addressOf(p: Place): Address {
  return {
    id: p.id,
    place_id: p.placeId,
    lat: String(p.lat),
    lng: String(p.lng),
    address: p.address,
    country: p.country,
    country_code: p.countryCode,
    state: p.state,
    city: p.city,
    road: p.road,
    house: p.house,
    zip: p.zip,
    type: p.type,
  };
}

/** The text searched: a text of spaces only is no text (the schema has already refused an empty one). */
function sought(q: string): string {
  const text = q.trim();
  if (text === "") throw new InvalidInputError({ q: "The q field is required." });
  return text;
}

/**
 * `address`: the name of the user's first active geofence (by id) holding the point, as the
 * vendor's "geofence name instead of address" option would; else the point's address; ""
 * when the geocoder knows none.
 */
export async function nameAt(db: Db, geocoder: Geocoder, user: User, point: AddressPointQuery): Promise<string> {
  const { zones } = await pointIn(db, user, point);
  if (zones[0] !== undefined) return zones[0];
  return (await geocoder.reverse(point))?.address ?? "";
}

/** `address/reverse`: the place at a point; 404 when none is known there. */
export async function reverse(geocoder: Geocoder, point: AddressPointQuery): Promise<AddressLocationResponse> {
  const place = await geocoder.reverse(point);
  if (!place) throw new NotFoundError(WHAT);
  return { status: 1, location: addressOf(place) };
}

/** `address/search`: the best match for a text; 404 when there is none. */
export async function search(geocoder: Geocoder, q: string): Promise<AddressLocationResponse> {
  const place = await geocoder.search(sought(q));
  if (!place) throw new NotFoundError(WHAT);
  return { status: 1, location: addressOf(place) };
}

/** `address/autocomplete`: up to AUTOCOMPLETE_LIMIT places, best first; [] when none. */
export async function autocomplete(geocoder: Geocoder, q: string): Promise<Address[]> {
  return (await geocoder.autocomplete(sought(q), AUTOCOMPLETE_LIMIT)).map(addressOf);
}
