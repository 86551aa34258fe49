import { WEEKDAYS } from "@fleet/contracts";
import { NO_NOTIFICATIONS, createAlert, createCustomEvent, createDevice, createDriver, createGeofence, createUser, createUserSensor, type AlertValues, type CustomEventInput, type Db, type LatLng } from "@fleet/db";
import { seededRandom } from "@fleet/testkit";
import { REGION, type Rng } from "./region.js";

/*
 * The accounts bench:rules runs against, written through the same queries the api uses:
 * per user, its devices (each with a fuel level sensor), geofences, drivers, custom events
 * and alerts of every type, each alert watching every device of its user (or the share
 * BENCH_RULES_WATCHED_SHARE says). Each account
 * has a twin with the same number of devices and nothing else: the baseline run's.
 */

export interface SeedSizes {
  users: number;
  devicesPerUser: number;
  geofencesPerUser: number;
  alertsPerUser: number;
  /** The share of its user's devices each alert watches, (0, 1]. */
  watchedShare: number;
}

/** The i-th alert's devices: a run of `share` of them, starting a little further along for each alert. */
function watchedBy(i: number, devices: readonly number[], share: number): number[] {
  const n = Math.max(1, Math.round(devices.length * share));
  if (n >= devices.length) return [...devices];
  const start = (i * 7) % devices.length;
  return Array.from({ length: n }, (_, k) => devices[(start + k) % devices.length]!);
}

export interface SeededDevice {
  id: number;
  imei: string;
  userId: number;
}

export interface SeededAccount {
  userId: number;
  devices: SeededDevice[];
  /** The cards of the account's drivers, as positions carry them. */
  cards: string[];
}

export interface Seeded {
  watched: SeededAccount[];
  /** The twins: same devices, no alerts. */
  unwatched: SeededAccount[];
  alerts: number;
  geofences: number;
}

/** Geofence alerts come in groups, each group's alerts naming every GEOFENCE_ALERT_GROUPS-th geofence. */
const GEOFENCE_ALERT_GROUPS = 20;
const DRIVERS = 20;
/**
 * Every other type's share of a hundred alerts; geofence alerts (in, out, in/out) take the
 * rest. A fleet with a thousand geofences (depots, customers' sites) mostly alerts on them; a
 * few speed limits, durations, fuel, driver, SOS, offline and custom alerts come beside them.
 */
const MIX: [AlertValues["type"], number][] = [
  ["overspeed", 5],
  ["custom", 10],
  ["stop_duration", 4],
  ["idle_duration", 4],
  ["ignition_duration", 3],
  ["driver", 3],
  ["sos", 3],
  ["distance", 3],
  ["fuel_change", 3],
  ["offline_duration", 2],
];

/** A weekly schedule of 06:00–22:00 on weekdays, in quarter-hour slots as the alert screens send them. */
function workingHours(): Record<string, string[]> {
  const slots: string[] = [];
  for (let m = 6 * 60; m < 22 * 60; m += 15) slots.push(`${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`);
  return Object.fromEntries(WEEKDAYS.slice(0, 5).map((d) => [d, slots]));
}

function circleOrPolygon(rng: Rng, i: number): { type: "polygon" | "circle"; coordinates: LatLng[]; center: LatLng | null; radius: number | null } {
  const center = { lat: REGION.south + rng() * (REGION.north - REGION.south), lng: REGION.west + rng() * (REGION.east - REGION.west) };
  const radiusM = 50 + rng() * 450;
  if (i % 5 < 3) return { type: "circle", coordinates: [], center, radius: Math.round(radiusM) };
  const corners = 5 + Math.floor(rng() * 8);
  const ring: LatLng[] = [];
  for (let k = 0; k < corners; k++) {
    const a = (2 * Math.PI * k) / corners;
    const r = radiusM * (0.6 + 0.4 * rng());
    ring.push({ lat: center.lat + (r / 111_320) * Math.sin(a), lng: center.lng + (r / (111_320 * Math.cos((center.lat * Math.PI) / 180))) * Math.cos(a) });
  }
  ring.push(ring[0]!);
  return { type: "polygon", coordinates: ring, center: null, radius: null };
}

/** The i-th alert of a user: its type's values, the geofence alerts taking every tenth geofence each. */
function alertOf(i: number, sizes: SeedSizes, ids: { devices: number[]; geofences: number[]; drivers: number[]; custom: number[] }): AlertValues {
  const base = { name: `bench alert ${i}`, active: true, attributes: {}, zone: 0, zones: [], geofences: [], drivers: [], eventsCustom: [], pois: [], schedule: false, schedules: {}, notifications: NO_NOTIFICATIONS, devices: watchedBy(i, ids.devices, sizes.watchedShare) };
  const slot = i % 100;
  const geofenceAlerts = 100 - MIX.reduce((n, [, k]) => n + k, 0);
  if (slot < geofenceAlerts) {
    const type = (["geofence_in", "geofence_out", "geofence_inout"] as const)[slot % 3]!;
    const group = slot % GEOFENCE_ALERT_GROUPS;
    return { ...base, type, geofences: ids.geofences.filter((_, g) => g % GEOFENCE_ALERT_GROUPS === group) };
  }
  let k = slot - geofenceAlerts;
  const [type] = MIX.find(([, n]) => (k -= n) < 0)!;
  // A tenth of the others apply only in working hours, another tenth only inside five zones.
  const scoped = i % 10 === 1 ? { schedule: true, schedules: workingHours() } : i % 10 === 2 && ids.geofences.length >= 5 ? { zone: 1, zones: ids.geofences.slice(i % 50, (i % 50) + 5) } : {};
  const attributes: Record<string, Record<string, number>> = {
    overspeed: { overspeed: [50, 70, 90, 110, 130][i % 5]! },
    stop_duration: { stop_duration: 5 + (i % 4) * 5 },
    idle_duration: { idle_duration: 2 + (i % 4) },
    ignition_duration: { ignition_duration: 30 + (i % 3) * 30 },
    distance: { distance: 20 + (i % 5) * 10, distance_unit: 1 },
    fuel_change: { state: 1 + (i % 2), fuel_amount: 20, fuel_unit: 1 },
    offline_duration: { offline_duration: 60 },
  };
  const lists = {
    custom: { eventsCustom: [ids.custom[i % ids.custom.length]!, ids.custom[(i + 1) % ids.custom.length]!] },
    driver: i % 2 === 0 ? { drivers: ids.drivers.slice(0, 5) } : {},
  };
  return { ...base, type, attributes: attributes[type] ?? {}, ...(lists[type as keyof typeof lists] ?? {}), ...scoped };
}

const CUSTOM_EVENTS: Pick<CustomEventInput, "message" | "conditions">[] = [
  { message: "Door opened", conditions: [{ tag: "io1", type: 1, tag_value: "1" }] },
  { message: "Hot cargo", conditions: [{ tag: "temp", type: 2, tag_value: "30" }] },
  { message: "Battery low", conditions: [{ tag: "battery", type: 3, tag_value: "20" }] },
  { message: "Door open while driving", conditions: [{ tag: "io1", type: 1, tag_value: "1" }, { tag: "ignition", type: 1, tag_value: "true" }] },
  { message: "Cold cargo", conditions: [{ tag: "temp", type: 3, tag_value: "2" }] },
];

async function seedAccount(db: Db, u: number, twin: boolean, sizes: SeedSizes, rng: Rng): Promise<{ account: SeededAccount; alerts: number; geofences: number }> {
  const label = twin ? `twin${u}` : `user${u}`;
  const user = await createUser(db, { email: `bench-rules-${label}@fleet.local`, password: "bench-password" });
  const devices: SeededDevice[] = [];
  for (let d = 0; d < sizes.devicesPerUser; d += 20) {
    const chunk = [];
    for (let k = d; k < Math.min(d + 20, sizes.devicesPerUser); k++) chunk.push(createDevice(db, user.id, { name: `${label} truck ${k}`, imei: `rb-${label}-${k}` }));
    for (const r of await Promise.all(chunk)) devices.push({ id: r.id, imei: r.imei, userId: user.id });
  }
  const cards = Array.from({ length: DRIVERS }, (_, k) => `${label}-card-${k}`);
  if (twin) return { account: { userId: user.id, devices, cards }, alerts: 0, geofences: 0 };

  await Promise.all(
    devices.map((d) => createUserSensor(db, user.id, d.id, { name: "Fuel", type: "fuel_tank", tagName: "fuel", unitOfMeasurement: "l", fullTank: 400, fullTankValue: 400 })),
  );
  const geofences: number[] = [];
  for (let g = 0; g < sizes.geofencesPerUser; g += 50) {
    const chunk = [];
    for (let k = g; k < Math.min(g + 50, sizes.geofencesPerUser); k++) {
      chunk.push(createGeofence(db, user.id, { name: `${label} zone ${k}`, polygonColor: "#d000df", ...circleOrPolygon(rng, k) }));
    }
    geofences.push(...(await Promise.all(chunk)).map((g) => g.id));
  }
  const drivers = [];
  for (const [k, rfid] of cards.entries()) drivers.push((await createDriver(db, user.id, { deviceId: devices[k % devices.length]!.id, name: `${label} driver ${k}`, rfid })).id);
  const custom = [];
  for (const e of CUSTOM_EVENTS) custom.push((await createCustomEvent(db, user.id, { protocol: "teltonika", ...e })).id);
  const ids = { devices: devices.map((d) => d.id), geofences, drivers, custom };
  for (let a = 0; a < sizes.alertsPerUser; a += 20) {
    const chunk = [];
    for (let k = a; k < Math.min(a + 20, sizes.alertsPerUser); k++) chunk.push(createAlert(db, user.id, alertOf(k, sizes, ids)));
    await Promise.all(chunk);
  }
  return { account: { userId: user.id, devices, cards }, alerts: sizes.alertsPerUser, geofences: geofences.length };
}

/** Writes the accounts, logging each. */
export async function seedAccounts(db: Db, sizes: SeedSizes, log: (line: string) => void): Promise<Seeded> {
  const rng = seededRandom(20261126);
  const out: Seeded = { watched: [], unwatched: [], alerts: 0, geofences: 0 };
  for (let u = 0; u < sizes.users; u++) {
    const watched = await seedAccount(db, u, false, sizes, rng);
    const twin = await seedAccount(db, u, true, sizes, rng);
    out.watched.push(watched.account);
    out.unwatched.push(twin.account);
    out.alerts += watched.alerts;
    out.geofences += watched.geofences;
    log(`  seeded account ${u + 1}/${sizes.users}: ${sizes.devicesPerUser} devices, ${watched.geofences} geofences, ${watched.alerts} alerts, and its twin`);
  }
  return out;
}
