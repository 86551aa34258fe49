import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Breaker, type BreakerOptions } from "./breaker.js";
import { Lru } from "./lru.js";
import { autocompleteLimit, isPoint, type Geocoder, type GeocoderLogger, type LatLng, type Place } from "./port.js";
import { searchKey } from "./text.js";

export interface NominatimGeocoderOptions {
  /** GEOCODER_URL: the server's base, `/reverse` and `/search` are appended to its path; a query it holds (an API key) is kept. */
  url: string;
  /** How long one lookup may take, answer read included. Default 3 s. */
  timeoutMs?: number;
  /** Answers kept per kind of lookup (reverse, search) in a least-recently-used cache. Default 10,000; 0 keeps none. */
  cacheSize?: number;
  /** Sent with every request: Nominatim's usage policy asks for one that names the application. */
  userAgent?: string;
  /** When to stop asking a server that keeps failing (breaker.ts); the defaults suit production. */
  breaker?: BreakerOptions;
  logger: GeocoderLogger;
}

export const DEFAULT_GEOCODER_TIMEOUT_MS = 3000;
export const DEFAULT_GEOCODER_CACHE_SIZE = 10_000;
export const DEFAULT_USER_AGENT = "fleet-tracking (self-hosted GPS fleet platform)";

/** Reverse lookups are cached by the point rounded to 4 decimals, about 11 m of latitude: a parked vehicle's jitter hits the cache. */
const REVERSE_DECIMALS = 4;

/** One place of a jsonv2 answer, as far as we read it; everything else Nominatim sends is ignored. */
const NominatimPlaceSchema = Type.Object({
  place_id: Type.Integer({ minimum: 0 }),
  lat: Type.String(),
  lon: Type.String(),
  display_name: Type.String(),
  type: Type.Optional(Type.String()),
  addresstype: Type.Optional(Type.String()),
  address: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
type NominatimPlace = Static<typeof NominatimPlaceSchema>;

/** Reverse's answer where it knows no place: `{"error": "Unable to geocode"}`, still a 200. */
const NominatimMissSchema = Type.Object({ error: Type.Unknown() });

/** Why a lookup failed, logged once per failure. */
class LookupFailed extends Error {}

/** The base URL as it may be logged: host and path, never credentials or a query (a key may be there). */
export function endpointLabel(base: URL): string {
  return `${base.host}${base.pathname.replace(/\/$/, "")}`;
}

/**
 * The geocoder over Nominatim's API (`/reverse` and `/search`, format jsonv2), or any
 * server that speaks it (Photon's Nominatim mode, LocationIQ with a key in GEOCODER_URL).
 *
 * The server is the operator's choice (GEOCODER_URL), not a user's, so it may be at a
 * private or loopback address (a Nominatim container beside the API): @fleet/outbound's
 * public-address rule, which guards URLs users give, does not apply here.
 *
 * Answers, misses included, are cached; failures are not (the next lookup tries again,
 * unless so many failed in a row that the breaker holds lookups off for a while). Lookups of
 * one key already under way share one request.
 */
export function createNominatimGeocoder(opts: NominatimGeocoderOptions): Geocoder {
  const base = new URL(opts.url);
  if (base.protocol !== "http:" && base.protocol !== "https:") throw new TypeError(`GEOCODER_URL must be an http(s) URL, not ${base.protocol}`);
  const label = endpointLabel(base);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GEOCODER_TIMEOUT_MS;
  const cacheSize = opts.cacheSize ?? DEFAULT_GEOCODER_CACHE_SIZE;
  const headers = { "user-agent": opts.userAgent ?? DEFAULT_USER_AGENT, accept: "application/json" };
  const reverseCache = new Lru<Place | null>(cacheSize);
  const searchCache = new Lru<Place[]>(cacheSize);
  const pending = new Map<string, Promise<unknown>>();
  const breaker = new Breaker(opts.breaker);

  function urlOf(endpoint: "reverse" | "search", params: Record<string, string>): URL {
    const url = new URL(base);
    url.pathname = `${url.pathname.replace(/\/$/, "")}/${endpoint}`;
    for (const [k, v] of Object.entries({ format: "jsonv2", addressdetails: "1", ...params })) url.searchParams.set(k, v);
    return url;
  }

  async function getJson(url: URL): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new LookupFailed(fetchFailure(err, timeoutMs));
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new LookupFailed(`HTTP ${res.status}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw new LookupFailed(fetchFailure(err, timeoutMs));
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new LookupFailed("the answer is not JSON");
    }
  }

  /** One lookup through the cache: a cached answer, the request under way for the key, or a new one. Failures resolve `failed`. */
  async function cached<T>(cache: Lru<T>, key: string, what: Record<string, unknown>, load: () => Promise<T>, failed: T): Promise<T> {
    if (cache.has(key)) return cache.get(key) as T;
    const running = pending.get(key) as Promise<T> | undefined;
    if (running) return running;
    // Held off: answered as a failure, without a request or a line of its own (the opening logged why).
    if (!breaker.allow()) return failed;
    const work = load()
      .then((value) => {
        cache.set(key, value);
        if (breaker.succeeded() === "closed") opts.logger.info({ geocoder: "nominatim", endpoint: label }, "the geocoder answers again; addresses are looked up again");
        return value;
      })
      .catch((err: unknown) => {
        const reason = err instanceof LookupFailed ? err.message : `unexpected: ${String(err)}`;
        opts.logger.warn({ geocoder: "nominatim", endpoint: label, ...what, reason }, "geocoder lookup failed; the address is left empty");
        if (breaker.failed() === "opened") {
          opts.logger.warn(
            { geocoder: "nominatim", endpoint: label, failedInARow: breaker.failures, coolDownMs: breaker.coolDownMs },
            "the geocoder keeps failing; addresses are left empty without asking it until one trial lookup after the cool-down succeeds",
          );
        }
        return failed;
      })
      .finally(() => pending.delete(key));
    pending.set(key, work);
    return work;
  }

  async function lookUp(url: URL): Promise<Place[]> {
    const body = await getJson(url);
    const list = Array.isArray(body) ? body : Value.Check(NominatimMissSchema, body) ? [] : [body];
    return list.map((item) => {
      if (!Value.Check(NominatimPlaceSchema, item)) throw new LookupFailed("the answer is not Nominatim's jsonv2 format");
      const place = placeOf(item);
      if (!place) throw new LookupFailed("the answer holds a place off the globe");
      return place;
    });
  }

  /** Places for a text, up to `limit`; the text as a cache key is also what is sent. */
  function find(q: string, limit: number): Promise<Place[]> {
    const text = searchKey(q);
    if (text === "") return Promise.resolve([]);
    return cached(searchCache, `s:${limit}:${text}`, { lookup: "search", limit }, async () => (await lookUp(urlOf("search", { q: text, limit: String(limit) }))).slice(0, limit), []);
  }

  return {
    kind: "nominatim",
    async reverse(p: LatLng) {
      if (!isPoint(p)) return null;
      const lat = p.lat.toFixed(REVERSE_DECIMALS);
      const lng = p.lng.toFixed(REVERSE_DECIMALS);
      return cached(reverseCache, `r:${lat},${lng}`, { lookup: "reverse", lat, lng }, async () => (await lookUp(urlOf("reverse", { lat, lon: lng })))[0] ?? null, null);
    },
    async search(q: string) {
      return (await find(q, 1))[0] ?? null;
    },
    async autocomplete(q: string, limit?: number) {
      return find(q, autocompleteLimit(limit));
    },
  };
}

function fetchFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `no answer within ${timeoutMs} ms`;
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : err instanceof Error ? err.message : String(err);
  return `the request failed: ${detail}`;
}

const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const first = (address: Record<string, unknown>, keys: string[]) => keys.map((k) => text(address[k])).find((v) => v !== "") ?? "";

/** Nominatim's place in the port's terms; undefined when its coordinates are no point. */
function placeOf(n: NominatimPlace): Place | undefined {
  const lat = Number(n.lat);
  const lng = Number(n.lon);
  if (n.lat.trim() === "" || n.lon.trim() === "" || !isPoint({ lat, lng })) return undefined;
  const a = n.address ?? {};
  return {
    id: String(n.place_id),
    placeId: n.place_id,
    lat,
    lng,
    address: n.display_name,
    country: text(a.country),
    countryCode: text(a.country_code).toUpperCase(),
    state: first(a, ["state", "region", "province", "state_district", "county"]),
    city: first(a, ["city", "town", "village", "hamlet", "municipality"]),
    road: first(a, ["road", "pedestrian", "footway", "cycleway", "path"]),
    house: first(a, ["house_number", "house_name"]),
    zip: text(a.postcode),
    type: n.addresstype ?? n.type ?? "",
  };
}
