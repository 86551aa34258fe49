import type { RawPosition } from "@fleet/contracts";

/**
 * Realistic position traffic for ~N devices: what Traccar's `forward.url` sends to
 * /insert.php, a gateway's JSON batch for /insert, and the RawPosition messages ingest
 * would have put on positions.raw.
 */

/** A 15-digit IMEI-like uniqueId for device number `i`. */
export const imeiOf = (i: number): string => `35${String(i).padStart(13, "0")}`;

/** A device's home area: spread over a ~2° square around Vilnius so distances are plausible. */
function home(i: number): { lat: number; lng: number } {
  return { lat: 54 + ((i * 7919) % 2000) / 1000, lng: 24 + ((i * 104729) % 2000) / 1000 };
}

const attributesJson = (i: number, step: number) =>
  JSON.stringify({ priority: 0, sat: 8 + (i % 6), event: 0, ignition: true, motion: true, io239: 1, Power: 12.77, "Battery Level": 98, odometer: 123456.7 + step, rfid: "0012345678" });

/** The path of one Traccar forward.url request (uniqueId, fix and URL-encoded JSON attributes). */
export function traccarPath(device: number, fixTime: number): string {
  const { lat, lng } = home(device);
  return (
    `/insert.php?uniqueId=${imeiOf(device)}&protocol=teltonika&deviceTime=${fixTime}&fixTime=${fixTime}&valid=true` +
    `&latitude=${lat.toFixed(6)}&longitude=${lng.toFixed(6)}&altitude=112.0&speed=27.0&course=181.0` +
    `&attributes=${encodeURIComponent(attributesJson(device, 0))}`
  );
}

/** One request path per device; the load generator cycles through them. */
export function traccarPaths(devices: number, fixTime: number): string[] {
  return Array.from({ length: devices }, (_, d) => traccarPath(d, fixTime));
}

/** A JSON array of `size` positions in the spec's field names, devices taken in turn. */
export function batchBody(size: number, devices: number, fixTime: number): string {
  const items = Array.from({ length: size }, (_, k) => {
    const d = k % devices;
    const { lat, lng } = home(d);
    return {
      uniqueId: imeiOf(d),
      protocol: "osmand",
      latitude: Number((lat + k * 1e-5).toFixed(6)),
      longitude: Number(lng.toFixed(6)),
      altitude: 112,
      speed: 27,
      course: 181,
      fixTime: fixTime + k,
      attributes: { sat: 10, ignition: true, motion: true, power: 12.77, battery: 98, odometer: 123456.7 + k },
    };
  });
  return JSON.stringify(items);
}

/**
 * Message `n` of a positions.raw backlog: devices take turns, so each device's fixes
 * arrive in time order, one second apart, moving ~15 m per fix.
 */
export function rawPosition(n: number, devices: number, firstFixTime: number, idBase: number): RawPosition {
  const d = n % devices;
  const step = Math.floor(n / devices);
  const { lat, lng } = home(d);
  const fixTime = firstFixTime + step * 1000;
  return {
    id: idBase + n,
    uniqueId: imeiOf(d),
    protocol: "teltonika",
    latitude: Math.round((lat + step * 1.35e-4) * 1e6) / 1e6,
    longitude: lng,
    altitude: 112,
    course: 0,
    speed: 29,
    fixTime,
    serverTime: fixTime + 350,
    attributes: { priority: 0, sat: 8 + (d % 6), event: 0, ignition: true, motion: true, io239: 1, power: 12.77, battery_level: 98, odometer: 123456.7 + step * 0.015, rfid: "0012345678" },
  };
}
