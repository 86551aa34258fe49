import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { KNOTS_TO_KMH, RawPositionSchema } from "@fleet/contracts";
import { distanceKm } from "@fleet/geo";
import { Track, type SentPosition, type TrackInput } from "./index.js";

const START = Date.UTC(2026, 2, 1);
const take = (input: Partial<TrackInput>, n: number): SentPosition[] => {
  const track = new Track({ seed: 7, uniqueId: "sim-7", startTime: START, ...input });
  return Array.from({ length: n }, () => track.next());
};
/** A week at the 10 s default, with no anomalies: the vehicle's drive as the tracker samples it. */
const clean = take({ gapShare: 0, duplicateShare: 0, outOfOrderShare: 0 }, 60_000).map((s) => s.position);
const kmh = (knots: number) => knots * KNOTS_TO_KMH;
const at = (p: { latitude: number; longitude: number }) => ({ lat: p.latitude, lng: p.longitude });

/** Runs of consecutive positions for which `pred` holds. */
function spells<T>(xs: readonly T[], pred: (x: T) => boolean): T[][] {
  const out: T[][] = [];
  let run: T[] = [];
  for (const x of xs) {
    if (pred(x)) run.push(x);
    else if (run.length > 0) {
      out.push(run);
      run = [];
    }
  }
  if (run.length > 0) out.push(run);
  return out;
}

describe("the track model", () => {
  it("is deterministic: the same seed gives the same positions, another seed others", () => {
    expect(take({}, 5000)).toEqual(take({}, 5000));
    expect(take({ seed: 8 }, 50).map((s) => s.position.latitude)).not.toEqual(take({}, 50).map((s) => s.position.latitude));
  });

  it("makes positions in ingest's raw shape, with ignition as an attribute", () => {
    for (const p of clean.slice(0, 2000)) {
      expect(Value.Errors(RawPositionSchema, { ...p, id: 1, serverTime: p.fixTime }).First()).toBeUndefined();
      expect(typeof p.attributes.ignition).toBe("boolean");
    }
  });

  it("reports every interval, in time order, when nothing is lost or late", () => {
    for (let i = 1; i < clean.length; i++) expect(clean[i]!.fixTime - clean[i - 1]!.fixTime).toBe(10_000);
    expect(take({ intervalMs: 2000, parkedIntervalMs: 60_000, gapShare: 0, duplicateShare: 0, outOfOrderShare: 0 }, 5000).every((s, i, all) => i === 0 || s.position.fixTime > all[i - 1]!.position.fixTime)).toBe(true);
  });

  it("keeps speeds within the vehicle's maximum, drives at city and road speeds, and accelerates and brakes plausibly", () => {
    const speeds = clean.map((p) => kmh(p.speed));
    expect(Math.min(...speeds)).toBe(0);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(120);
    expect(Math.max(...speeds)).toBeGreaterThan(70);
    const slowest = take({ maxSpeedKmh: 40, gapShare: 0 }, 20_000).map((s) => kmh(s.position.speed));
    expect(Math.max(...slowest)).toBeLessThanOrEqual(40);
    for (let i = 1; i < clean.length; i++) {
      const dv = (speeds[i]! - speeds[i - 1]!) / 3.6 / 10;
      expect(dv).toBeLessThanOrEqual(2.3); // m/s², the firmest acceleration plus noise
      expect(dv).toBeGreaterThanOrEqual(-5.2); // the firmest braking plus noise
    }
  });

  it("moves no further between fixes than its speed allows (no jumps), beyond GPS noise", () => {
    for (let i = 1; i < clean.length; i++) {
      const metres = distanceKm(at(clean[i - 1]!), at(clean[i]!)) * 1000;
      expect(metres).toBeLessThanOrEqual((120 / 3.6) * 10 + 30);
    }
  });

  it("parks with the ignition off for long spells, standing still, and keeps the ignition on at traffic stops shorter than 3 minutes", () => {
    const parked = spells(clean, (p) => p.attributes.ignition === false);
    expect(parked.length).toBeGreaterThan(5);
    // The first and last spells may be cut by the week's ends.
    for (const spell of parked.slice(1, -1)) {
      expect(spell.length * 10).toBeGreaterThanOrEqual(20 * 60 - 10);
      expect(spell.every((p) => p.speed === 0 && p.attributes.motion === false)).toBe(true);
      const first = at(spell[0]!);
      for (const p of spell) expect(distanceKm(first, at(p)) * 1000).toBeLessThan(40); // jitter only
    }
    const driving = spells(clean, (p) => p.attributes.ignition === true);
    const trafficStops = driving.flatMap((d) => spells(d.slice(12, -12), (p) => p.speed === 0));
    expect(trafficStops.length).toBeGreaterThan(20);
    for (const stop of trafficStops) expect(stop.length * 10).toBeLessThanOrEqual(170);
  });

  it("stays in its region: within the roaming radius of home, give or take a street", () => {
    const home = at(clean[0]!);
    const farthest = Math.max(...clean.map((p) => distanceKm(home, at(p))));
    expect(farthest).toBeGreaterThan(2);
    expect(farthest).toBeLessThan(15 + 5);
  });

  it("loses, repeats and delays positions in the configured shares", () => {
    const sent = take({ intervalMs: 10_000, gapShare: 0.05, gapSeconds: [20, 120], duplicateShare: 0.02, outOfOrderShare: 0.03 }, 100_000).map((s) => s.position);
    const seen = new Set<number>();
    let duplicates = 0;
    let late = 0;
    let newest = -Infinity;
    for (const p of sent) {
      if (seen.has(p.fixTime)) duplicates++;
      else if (p.fixTime < newest) late++;
      seen.add(p.fixTime);
      newest = Math.max(newest, p.fixTime);
    }
    const slots = (newest - START) / 10_000 + 1;
    const lost = 1 - seen.size / slots;
    expect(lost).toBeGreaterThan(0.05 * 0.85);
    expect(lost).toBeLessThan(0.05 * 1.15);
    expect(duplicates / sent.length).toBeGreaterThan(0.02 * 0.85);
    expect(duplicates / sent.length).toBeLessThan(0.02 * 1.15);
    // A late position whose successors fell in a gap arrives in order after all: a little under the share.
    expect(late / sent.length).toBeGreaterThan(0.03 * 0.8);
    expect(late / sent.length).toBeLessThan(0.03 * 1.1);
    // Stretches with no data: at least the shortest configured, never longer than the longest.
    const times = [...seen].sort((a, b) => a - b);
    const holes = times.slice(1).map((t, i) => t - times[i]!).filter((d) => d > 10_000);
    expect(Math.min(...holes)).toBeGreaterThanOrEqual(20_000);
    expect(Math.max(...holes)).toBeLessThanOrEqual(130_000);
  });

  it("sends in order of sending time, each position at or after its fix", () => {
    const sent = take({ duplicateShare: 0.05, outOfOrderShare: 0.05 }, 20_000);
    for (let i = 0; i < sent.length; i++) {
      expect(sent[i]!.sentAt).toBeGreaterThanOrEqual(sent[i]!.position.fixTime);
      if (i > 0) expect(sent[i]!.sentAt).toBeGreaterThanOrEqual(sent[i - 1]!.sentAt);
    }
  });

  it("refuses options out of range, naming them", () => {
    expect(() => new Track({ seed: 1, uniqueId: "x", startTime: START, gapShare: 0.7 })).toThrow(/gapShare/);
    expect(() => new Track({ seed: 1, uniqueId: "x", startTime: START, trafficStopSeconds: [10, 200] })).toThrow(/trafficStopSeconds/);
    expect(() => new Track({ seed: 1, uniqueId: "x", startTime: START, intervalMs: 0 })).toThrow(/intervalMs/);
  });
});
