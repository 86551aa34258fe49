import type { Geocoder } from "@fleet/geocoder";

/*
 * Addresses of many points at once through the geocoder port, for reports and event lists:
 * each spot once, a few lookups at a time, within a time budget. A point the geocoder could
 * not name in time, or at all, is simply absent (the geocoder logs why); nothing fails.
 */

type Point = { latitude: number; longitude: number };

/** Points closer than ~1 m are one place: a parked vehicle's fixes are looked up once. */
export const placeKey = (p: Point) => `${p.latitude.toFixed(5)},${p.longitude.toFixed(5)}`;
/** How many lookups run at once. */
const CONCURRENCY = 8;

/** The addresses of these points by placeKey, as many as the geocoder answers within `budgetMs`. */
export async function addressesOf(geocoder: Pick<Geocoder, "reverse">, points: readonly Point[], budgetMs: number): Promise<Map<string, string>> {
  const todo = [...new Map(points.map((p) => [placeKey(p), p])).entries()];
  const found = new Map<string, string>();
  const deadline = Date.now() + budgetMs;
  const worker = async () => {
    for (let next = todo.pop(); next && Date.now() < deadline; next = todo.pop()) {
      const [key, p] = next;
      const place = await geocoder.reverse({ lat: p.latitude, lng: p.longitude });
      if (place?.address) found.set(key, place.address);
    }
  };
  await Promise.race([Promise.all(Array.from({ length: CONCURRENCY }, worker)), new Promise((resolve) => setTimeout(resolve, budgetMs).unref())]);
  return found;
}
