import type { EnrichedPosition } from "@fleet/contracts";
import { seededRandom } from "@fleet/testkit";
import { REGION, type Rng } from "./region.js";
import type { SeededAccount } from "./seed.js";

/*
 * The enriched positions bench:rules consumes, as the tracker writes them: each device
 * drives (20–130 km/h, turning slowly), idles, parks with the engine off, and drives again;
 * its fuel burns and is now and then filled or drained, a door input toggles, the cargo
 * temperature drifts, drivers swap cards between trips and an SOS is rare. Every device's
 * track comes from its own seed, so an account and its twin drive the same tracks.
 */

const STEP_MS = 10_000;

type Phase = "drive" | "idle" | "parked";

interface Vehicle {
  rng: Rng;
  lat: number;
  lng: number;
  heading: number;
  speed: number;
  target: number;
  phase: Phase;
  left: number;
  fuel: number;
  card: number;
  io1: number;
  temp: number;
  battery: number;
}

function vehicle(seed: number): Vehicle {
  const rng = seededRandom(seed);
  return {
    rng,
    lat: REGION.south + rng() * (REGION.north - REGION.south),
    lng: REGION.west + rng() * (REGION.east - REGION.west),
    heading: rng() * 2 * Math.PI,
    speed: 0,
    target: 40,
    phase: "parked",
    left: Math.floor(rng() * 30),
    fuel: 100 + rng() * 250,
    card: Math.floor(rng() * 20),
    io1: 0,
    temp: 5 + rng() * 20,
    battery: 100,
  };
}

function nextPhase(v: Vehicle): void {
  const { rng } = v;
  if (v.phase === "drive") {
    v.phase = "idle";
    v.left = 6 + Math.floor(rng() * 30);
  } else if (v.phase === "idle") {
    v.phase = "parked";
    v.left = 30 + Math.floor(rng() * 90);
    const r = rng();
    if (r < 0.1) v.fuel = Math.min(400, v.fuel + 150);
    else if (r < 0.12) v.fuel = Math.max(0, v.fuel - 40);
  } else {
    v.phase = "drive";
    v.left = 60 + Math.floor(rng() * 120);
    v.target = 20 + rng() * 110;
    if (rng() < 0.3) v.card = Math.floor(rng() * 20);
  }
}

/** Moves the vehicle one step; returns the km it drove. */
function step(v: Vehicle): number {
  const { rng } = v;
  if (--v.left <= 0) nextPhase(v);
  if (v.phase !== "drive") {
    v.speed = 0;
  } else {
    // A road's speed for a few minutes, then another's; GPS speed wavers a little around it.
    if (rng() < 0.02) v.target = 20 + rng() * 110;
    v.speed = Math.max(5, v.speed + (v.target - v.speed) * 0.3 + (rng() - 0.5) * 3);
    v.heading += (rng() - 0.5) * 0.4;
  }
  const km = (v.speed * STEP_MS) / 3_600_000;
  const dLat = (km / 111.32) * Math.cos(v.heading);
  const dLng = (km / (111.32 * Math.cos((v.lat * Math.PI) / 180))) * Math.sin(v.heading);
  if (v.lat + dLat < REGION.south || v.lat + dLat > REGION.north || v.lng + dLng < REGION.west || v.lng + dLng > REGION.east) {
    v.heading += Math.PI;
    return 0;
  }
  v.lat += dLat;
  v.lng += dLng;
  v.fuel = Math.max(0, v.fuel - km * 0.3);
  if (rng() < 0.003) v.io1 = 1 - v.io1;
  v.temp += (rng() - 0.5) * 0.1;
  v.battery = v.phase === "parked" ? Math.max(5, v.battery - 0.3) : Math.min(100, v.battery + 1);
  return km;
}

export interface TrackOptions {
  /** The first position's id; ids rise by one per position. */
  idBase: number;
  /** The first fix time. */
  t0: number;
}

/**
 * `count` positions of the accounts' devices, a step of every device at a time, as the
 * bus messages the tracker sends (keyed by the device's uniqueId). Built in chunks, so a
 * caller can send each before the next is made.
 */
export function* trackChunks(accounts: readonly SeededAccount[], count: number, opts: TrackOptions, chunk = 10_000): Generator<{ key: string; value: string }[]> {
  const devices = accounts.flatMap((a, ai) => a.devices.map((d, di) => ({ device: d, cards: a.cards, v: vehicle(1 + ai * 100_003 + di) })));
  let out: { key: string; value: string }[] = [];
  let n = 0;
  for (let s = 0; n < count; s++) {
    for (const { device, cards, v } of devices) {
      if (n >= count) break;
      const km = step(v);
      const fixTime = opts.t0 + s * STEP_MS;
      const engineOn = v.phase !== "parked";
      const position: EnrichedPosition = {
        id: opts.idBase + n,
        deviceId: device.id,
        uniqueId: device.imei,
        userIds: [device.userId],
        protocol: "teltonika",
        latitude: Math.round(v.lat * 1e6) / 1e6,
        longitude: Math.round(v.lng * 1e6) / 1e6,
        altitude: 120,
        course: Math.round(((v.heading * 180) / Math.PI + 360) % 360),
        speedKmh: Math.round(v.speed * 10) / 10,
        fixTime,
        serverTime: fixTime + 700,
        distanceKm: km,
        attributes: {
          ignition: engineOn,
          io1: v.io1,
          temp: Math.round(v.temp * 10) / 10,
          battery: Math.round(v.battery),
          fuel: Math.round(v.fuel * 10) / 10,
          sat: 9,
          ...(s % 30 === 0 || v.left === 1 ? { rfid: cards[v.card % cards.length] } : {}),
          ...(v.rng() < 0.00005 ? { alarm: "sos" } : {}),
        },
        latest: true,
        engineOn,
        moving: v.speed > 3,
      };
      out.push({ key: device.imei, value: JSON.stringify(position) });
      n++;
      if (out.length >= chunk) {
        yield out;
        out = [];
      }
    }
  }
  if (out.length > 0) yield out;
}
