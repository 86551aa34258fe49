import { KNOTS_TO_KMH } from "@fleet/contracts";
import { distanceKm } from "@fleet/geo";
import { Track, type TrackPosition } from "@fleet/tracks";
import type { RecordedPoint, RecordedTrack } from "./gpx.js";

/** What one simulated device sends, in sending order, on the wall clock. */
export interface DeviceFeed {
  readonly uniqueId: string;
  /** When the next position is due (epoch ms); Infinity once the feed has ended. */
  due(): number;
  take(): TrackPosition;
}

/** The devices' uniqueIds (their IMEIs in the platform): the same for a seed on every run, so a rerun feeds the devices it registered before. */
export const uniqueIdOf = (seed: number, i: number) => `sim-${seed}-${String(i + 1).padStart(4, "0")}`;

/**
 * Parking in the simulator is kept short (5 to 20 minutes, still well past the 3-minute stop
 * threshold) and so are trips: people run it to watch vehicles move, not to watch them park
 * for hours as the model's defaults (real fleets) would.
 */
const SIMULATOR_TRIPS = { tripMinutes: [5, 30] as const, parkMinutes: [5, 20] as const };

/**
 * `devices` vehicles of the track model, together sending `rate` positions a second: each
 * reports every devices / rate seconds (parked too, so the rate holds), their first fixes
 * spread over one interval so the sends are even.
 */
export function modelFeeds(opts: { devices: number; rate: number; seed: number; now: number }): DeviceFeed[] {
  const intervalMs = Math.max(1, Math.round((1000 * opts.devices) / opts.rate));
  return Array.from({ length: opts.devices }, (_, i) => {
    const uniqueId = uniqueIdOf(opts.seed, i);
    const track = new Track({
      seed: opts.seed * 1_000_003 + i,
      uniqueId,
      startTime: opts.now + Math.floor((i * intervalMs) / opts.devices),
      intervalMs,
      parkedIntervalMs: intervalMs,
      // A third of the fleet starts parked, the rest about to drive off.
      startParked: i % 3 === 2,
      ...SIMULATOR_TRIPS,
    });
    return { uniqueId, due: () => track.peekSentAt(), take: () => track.next().position };
  });
}

const rad = (d: number) => (d * Math.PI) / 180;

/** The compass bearing from one point to the next, degrees. */
function bearing(a: RecordedPoint, b: RecordedPoint): number {
  const dLng = rad(b.lng - a.lng);
  const y = Math.sin(dLng) * Math.cos(rad(b.lat));
  const x = Math.cos(rad(a.lat)) * Math.sin(rad(b.lat)) - Math.sin(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.cos(dLng);
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/**
 * A recorded track sent again from `start`: each point at its recorded time since the first,
 * divided by `speed`; points with no time follow each other every `intervalMs`. Speed and
 * course come from the recording (distance over recorded time, bearing to the point), so a
 * replay sped up still reports the speeds that were driven. Ignition is on throughout.
 */
export function replayFeed(track: RecordedTrack, opts: { uniqueId: string; start: number; speed: number; intervalMs: number }): DeviceFeed {
  const { points } = track;
  const offsets: number[] = [];
  let elapsed = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const prev = points[i - 1];
    if (prev === undefined) offsets.push(0);
    else {
      const recorded = p.time !== undefined && prev.time !== undefined ? Math.max(0, p.time - prev.time) / opts.speed : opts.intervalMs;
      elapsed += recorded;
      offsets.push(Math.round(elapsed));
    }
  }
  let next = 0;
  let course = 0;
  return {
    uniqueId: opts.uniqueId,
    due: () => (next < points.length ? opts.start + offsets[next]! : Infinity),
    take: () => {
      const i = next++;
      const p = points[i]!;
      const prev = points[i - 1];
      let knots = 0;
      if (prev) {
        const metres = distanceKm(prev, p) * 1000;
        if (metres > 0.5) course = bearing(prev, p);
        const seconds = p.time !== undefined && prev.time !== undefined ? (p.time - prev.time) / 1000 : (offsets[i]! - offsets[i - 1]!) / 1000;
        knots = seconds > 0 ? Math.min(869, (metres / seconds) * 3.6) / KNOTS_TO_KMH : 0;
      }
      return {
        uniqueId: opts.uniqueId,
        protocol: "gpx",
        fixTime: opts.start + offsets[i]!,
        latitude: Math.round(p.lat * 1e6) / 1e6,
        longitude: Math.round(p.lng * 1e6) / 1e6,
        altitude: p.altitude ?? 0,
        speed: Math.round(knots * 100) / 100,
        course: Math.round(course * 10) / 10,
        attributes: { ignition: true, motion: knots > 0.5 },
      };
    },
  };
}

/** One feed per device: device i replays track i modulo the tracks, all starting now. */
export function replayFeeds(tracks: readonly RecordedTrack[], opts: { devices: number; seed: number; speed: number; intervalMs: number; now: number }): DeviceFeed[] {
  return Array.from({ length: opts.devices }, (_, i) =>
    replayFeed(tracks[i % tracks.length]!, { uniqueId: uniqueIdOf(opts.seed, i), start: opts.now, speed: opts.speed, intervalMs: opts.intervalMs }),
  );
}
