import { expect } from "vitest";

/** How a scenario reaches the system under test: plain HTTP semantics, whatever carries them. */
export interface Client {
  request(method: "GET" | "POST", url: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  historyCount(): Promise<number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const started = Date.now();
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await sleep(200);
    last = await probe();
  }
  return last;
}

interface LatestItem {
  id: number;
  lat: number;
  lng: number;
  timestamp: number;
  tail: string;
  device_data: { imei: string };
}

/**
 * The end-to-end acceptance: log in, add 50 devices, push 2,000 positions
 * through insert.php and POST /insert, then check history, the live list and the
 * changed-since poll.
 */
export async function fleetScenario(client: Client, admin: { email: string; password: string }): Promise<void> {
  const login = await client.request("POST", "/api/login", admin);
  expect(login.status).toBe(200);
  const hash = (login.json as { user_api_hash: string }).user_api_hash;
  const api = (path: string) => `/api/${path}${path.includes("?") ? "&" : "?"}lang=en&user_api_hash=${hash}`;

  const suffix = Math.random().toString(36).slice(2, 8);
  const imeis = Array.from({ length: 50 }, (_, i) => `e2e-${suffix}-${i}`);
  const ids = new Map<string, number>();
  for (const imei of imeis) {
    const r = await client.request("POST", api("add_device"), { name: `Truck ${imei}`, imei, icon_id: 1, fuel_measurement_id: 1, tail_length: 10, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10 });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    ids.set(imei, (r.json as { id: number }).id);
  }

  // 40 positions per device, fixTime increasing; the newest per device is what the live list must show.
  const base = Date.now() - 3_600_000;
  const positions = imeis.flatMap((imei, d) =>
    Array.from({ length: 40 }, (_, k) => ({
      uniqueId: imei,
      protocol: "osmand",
      latitude: (54 + d * 0.01 + k * 0.001).toFixed(6),
      longitude: (25 + k * 0.001).toFixed(6),
      altitude: "100",
      speed: String(10 + (k % 20)),
      course: String((k * 9) % 360),
      fixTime: String(base + k * 30_000),
      "attributes[ignition]": k % 2 === 0 ? "true" : "false",
    })),
  );
  const viaGet = positions.filter((_, i) => i % 2 === 0);
  const viaBatch = positions.filter((_, i) => i % 2 === 1);
  for (let i = 0; i < viaGet.length; i += 50) {
    const results = await Promise.all(viaGet.slice(i, i + 50).map((p) => client.request("GET", `/insert.php?${new URLSearchParams(p)}`)));
    for (const r of results) expect(r.json).toEqual({ status: 1 });
  }
  for (let i = 0; i < viaBatch.length; i += 250) {
    const r = await client.request("POST", "/insert", viaBatch.slice(i, i + 250));
    expect(r.json).toEqual({ status: 1, accepted: 250, rejected: [] });
  }

  await waitFor("2,000 history rows", () => client.historyCount(), (n) => n >= 2000);
  // Give a lagging duplicate the chance to show, then check there is none.
  await sleep(1500);
  expect(await client.historyCount()).toBe(2000);

  const first = await client.request("GET", api("get_devices_latest"));
  const firstBody = first.json as { items: LatestItem[]; time: number };
  expect(firstBody.items).toHaveLength(50);
  expect(Math.abs(firstBody.time - Date.now() / 1000)).toBeLessThan(30);
  for (const item of firstBody.items) {
    const newest = positions.filter((p) => p.uniqueId === item.device_data.imei).at(-1)!;
    expect(item.id).toBe(ids.get(item.device_data.imei));
    expect(item.lat).toBe(Number(newest.latitude));
    expect(item.lng).toBe(Number(newest.longitude));
    expect(item.timestamp).toBe(Math.floor(Number(newest.fixTime) / 1000));
    expect(JSON.parse(item.tail)).toHaveLength(10);
  }

  // Five devices move; a poll from the returned time lists exactly them.
  await sleep(1100);
  const movers = imeis.slice(0, 5);
  for (const imei of movers) {
    const r = await client.request("GET", `/insert.php?${new URLSearchParams({ uniqueId: imei, protocol: "osmand", latitude: "55.5", longitude: "26.5", altitude: "1", speed: "30", course: "1", fixTime: String(Date.now()) })}`);
    expect(r.json).toEqual({ status: 1 });
  }
  const second = await waitFor(
    "the five moved devices in get_devices_latest",
    async () => (await client.request("GET", api(`get_devices_latest?time=${firstBody.time}`))).json as { items: LatestItem[]; time: number },
    (b) => b.items.filter((i) => i.lat === 55.5).length === 5,
  );
  expect(second.items.map((i) => i.device_data.imei).sort()).toEqual([...movers].sort());
  expect(second.time).toBeGreaterThanOrEqual(firstBody.time);
  await waitFor("2,005 history rows", () => client.historyCount(), (n) => n >= 2005);
}
