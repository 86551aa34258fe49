import { Type, type Static } from "@sinclair/typebox";
import { StatusOk } from "./common.js";
import { LatLngSchema } from "./geofences.js";

/*
 * The vendor's address endpoints: an address for a point (address, address/reverse) and
 * places for a text (address/search, address/autocomplete), answered through the geocoder
 * port (a Nominatim server, or the nearest town offline).
 */

/** A point to look up, in degrees: both required. */
export const AddressPointQuerySchema = Type.Object({ lat: LatLngSchema.properties.lat, lng: LatLngSchema.properties.lng });
export type AddressPointQuery = Static<typeof AddressPointQuerySchema>;

/** Longest text address/search and address/autocomplete take. */
export const MAX_ADDRESS_QUERY = 255;

export const AddressTextQuerySchema = Type.Object({
  q: Type.String({ minLength: 1, maxLength: MAX_ADDRESS_QUERY, description: "the text sought: an address, a place or the start of a town's name" }),
});
export type AddressTextQuery = Static<typeof AddressTextQuerySchema>;

/**
 * The vendor's `address` definition. Every field is always there; what the geocoder does
 * not know is "" (offline: road, house and zip). Coordinates are text, as the vendor's.
 */
export const AddressSchema = Type.Object({
  id: Type.String({ description: "the geocoder's id of the place (Nominatim's place_id, or the GeoNames id offline)" }),
  place_id: Type.Integer({ minimum: 0, description: "the same id as a number" }),
  lat: Type.String({ description: "degrees, as text" }),
  lng: Type.String({ description: "degrees, as text" }),
  address: Type.String({ description: "the whole address on one line" }),
  country: Type.String(),
  country_code: Type.String({ description: "ISO 3166-1 alpha-2, upper case" }),
  state: Type.String(),
  city: Type.String(),
  road: Type.String(),
  house: Type.String({ description: "the house number" }),
  zip: Type.String(),
  type: Type.String({ description: "what the place is: building, road, city..." }),
});
export type Address = Static<typeof AddressSchema>;

/** `GET /address`: the name of the user's geofence holding the point, else its address; "" when neither. */
export const AddressTextResponseSchema = Type.String({ description: "a geofence's name or the address; empty when none is known" });

/** `GET /address/reverse` and `GET /address/search`. */
export const AddressLocationResponseSchema = Type.Object({ status: StatusOk, location: AddressSchema });
export type AddressLocationResponse = Static<typeof AddressLocationResponseSchema>;

/** `GET /address/autocomplete`: the best matches first; empty when none. */
export const AddressListResponseSchema = Type.Array(AddressSchema);
