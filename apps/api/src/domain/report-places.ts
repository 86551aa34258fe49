import { listUserGeofences, type Db, type User } from "@fleet/db";
import { GeofenceIndex } from "@fleet/geo";
import type { Geocoder } from "@fleet/geocoder";
import { addressesOf, placeKey } from "./point-addresses.js";

/*
 * The places a report shows positions as: with zones_instead, the name of the user's geofence
 * holding the position; with show_addresses, its address through the geocoder port. A
 * geocoder that fails or is slow never fails a report: the position is shown by its
 * coordinates (the geocoder logs why).
 */

export interface PlaceDeps {
  db: Db;
  geocoder: Pick<Geocoder, "reverse">;
}

type Point = { latitude: number; longitude: number };

/** How long the whole report may wait for addresses. */
const ADDRESS_BUDGET_MS = 15_000;

/** The user's geofences' names by position: the first geofence (by id) holding it. */
async function zonesOf(db: Db, user: User): Promise<(p: Point) => string | undefined> {
  const geofences = (await listUserGeofences(db, user.id)).filter((g) => g.active);
  const names = new Map(geofences.map((g) => [g.id, g.name]));
  const index = new GeofenceIndex(geofences.map((g) => ({ id: g.id, shape: { type: g.type, coordinates: g.coordinates, center: g.center ?? null, radius: g.radius } })));
  return (p) => {
    const [first] = index.containing({ lat: p.latitude, lng: p.longitude });
    return first === undefined ? undefined : names.get(first);
  };
}

type Place = (p: Point) => string | undefined;

/**
 * How a report names the points it shows: given the points a part of it shows (found by
 * laying that part out once without names), the names to lay it out with; undefined when the
 * report asks for no places. The user's geofences are read once per report; the addresses'
 * time budget is the whole report's.
 */
export async function placeNamer(deps: PlaceDeps, user: User, asked: { showAddresses: boolean; zonesInstead: boolean }): Promise<((shown: readonly Point[]) => Promise<Place>) | undefined> {
  if (!asked.showAddresses && !asked.zonesInstead) return undefined;
  const zone: Place = asked.zonesInstead ? await zonesOf(deps.db, user) : () => undefined;
  const deadline = Date.now() + ADDRESS_BUDGET_MS;
  return async (shown) => {
    const budget = deadline - Date.now();
    const addresses = asked.showAddresses && budget > 0 ? await addressesOf(deps.geocoder, shown.filter((p) => zone(p) === undefined), budget) : new Map<string, string>();
    return (p) => zone(p) ?? addresses.get(placeKey(p));
  };
}
