import { listUserGeofences, type Db, type User } from "@fleet/db";
import { GeofenceIndex } from "@fleet/geo";
import type { Geocoder } from "@fleet/geocoder";

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

/** Points closer than ~1 m are one place: a parked vehicle's fixes are looked up once. */
const keyOf = (p: Point) => `${p.latitude.toFixed(5)},${p.longitude.toFixed(5)}`;
/** How many lookups run at once, and how long the whole report may wait for addresses. */
const CONCURRENCY = 8;
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

/** The addresses of these points, as many as the geocoder answers within the budget. */
async function addressesOf(geocoder: PlaceDeps["geocoder"], points: readonly Point[]): Promise<Map<string, string>> {
  const todo = [...new Map(points.map((p) => [keyOf(p), p])).entries()];
  const found = new Map<string, string>();
  const deadline = Date.now() + ADDRESS_BUDGET_MS;
  const worker = async () => {
    for (let next = todo.pop(); next && Date.now() < deadline; next = todo.pop()) {
      const [key, p] = next;
      const place = await geocoder.reverse({ lat: p.latitude, lng: p.longitude });
      if (place?.address) found.set(key, place.address);
    }
  };
  await Promise.race([Promise.all(Array.from({ length: CONCURRENCY }, worker)), new Promise((resolve) => setTimeout(resolve, ADDRESS_BUDGET_MS).unref())]);
  return found;
}

/**
 * How the report names the points it shows (`shown`, found by laying it out once without
 * names), or undefined when it asks for no places.
 */
export async function placesFor(deps: PlaceDeps, user: User, asked: { showAddresses: boolean; zonesInstead: boolean }, shown: readonly Point[]): Promise<((p: Point) => string | undefined) | undefined> {
  if (!asked.showAddresses && !asked.zonesInstead) return undefined;
  const zone = asked.zonesInstead ? await zonesOf(deps.db, user) : () => undefined;
  const addresses = asked.showAddresses ? await addressesOf(deps.geocoder, shown.filter((p) => zone(p) === undefined)) : new Map<string, string>();
  return (p) => zone(p) ?? addresses.get(keyOf(p));
}
