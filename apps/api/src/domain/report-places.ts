import type { Geofence } from "@fleet/db";
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
  geocoder: Pick<Geocoder, "reverse">;
}

type Point = { latitude: number; longitude: number };

/** How long the whole report may wait for addresses. */
const ADDRESS_BUDGET_MS = 15_000;

/** The geofences' names by position: the first active geofence (by id) holding it. */
function zonesOf(geofences: readonly Geofence[]): (p: Point) => string | undefined {
  const active = geofences.filter((g) => g.active);
  const names = new Map(active.map((g) => [g.id, g.name]));
  const index = new GeofenceIndex(active.map((g) => ({ id: g.id, shape: g })));
  return (p) => {
    const [first] = index.containing({ lat: p.latitude, lng: p.longitude });
    return first === undefined ? undefined : names.get(first);
  };
}

type Place = (p: Point) => string | undefined;

/**
 * How a report names the points it shows: given the points a part of it shows (found by
 * laying that part out once without names), the names to lay it out with; undefined when the
 * report asks for no places. The addresses' time budget is the whole report's.
 */
export function placeNamer(deps: PlaceDeps, asked: { showAddresses: boolean; zonesInstead: boolean }, geofences: readonly Geofence[]): ((shown: readonly Point[]) => Promise<Place>) | undefined {
  if (!asked.showAddresses && !asked.zonesInstead) return undefined;
  const zone: Place = asked.zonesInstead ? zonesOf(geofences) : () => undefined;
  const deadline = Date.now() + ADDRESS_BUDGET_MS;
  return async (shown) => {
    const budget = deadline - Date.now();
    const addresses = asked.showAddresses && budget > 0 ? await addressesOf(deps.geocoder, shown.filter((p) => zone(p) === undefined), budget) : new Map<string, string>();
    return (p) => zone(p) ?? addresses.get(placeKey(p));
  };
}
