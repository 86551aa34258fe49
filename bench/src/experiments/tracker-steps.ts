/**
 * CPU cost per position of the tracker's in-process steps, on the bench's raw positions:
 *
 *   pnpm --filter @fleet/bench experiment src/experiments/tracker-steps.ts
 *
 * Thread CPU time (process.cpuUsage on an otherwise idle process), so the figures hold up
 * better than wall-clock rates on a busy machine.
 */
import { Value } from "@sinclair/typebox/value";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { RawPositionSchema, type LiveState, type RawPosition } from "@fleet/contracts";
import { enrichPosition } from "@fleet/tracker";
import { rawPosition } from "../fixtures.js";

const N = 200_000;
const DEVICES = 1000;
const buffers = Array.from({ length: N }, (_, n) => Buffer.from(JSON.stringify(rawPosition(n, DEVICES, Date.now() - 3_600_000, 1e12))));

function cpuUs(label: string, fn: () => void, repeat = 3) {
  let best = Infinity;
  for (let r = 0; r < repeat; r++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / N);
  }
  console.log(`${label.padEnd(48)} ${best.toFixed(2).padStart(7)} µs/position`);
  return best;
}

let raws: RawPosition[] = [];
cpuUs("JSON.parse(value.toString())", () => {
  raws = buffers.map((b) => JSON.parse(b.toString("utf8")) as RawPosition);
});
cpuUs("Value.Check(RawPositionSchema) (as shipped)", () => {
  for (const r of raws) if (!Value.Check(RawPositionSchema, r)) throw new Error("invalid");
});
const compiled = TypeCompiler.Compile(RawPositionSchema);
cpuUs("TypeCompiler.Compile(RawPositionSchema).Check", () => {
  for (const r of raws) if (!compiled.Check(r)) throw new Error("invalid");
});

const devices = new Map(Array.from({ length: DEVICES }, (_, d) => [`35${String(d).padStart(13, "0")}`, { id: d + 1, imei: "", userIds: [1 + (d % 10)], minMovingSpeed: 6 }]));
let out: ReturnType<typeof enrichPosition>[] = [];
cpuUs("enrichPosition (30-point tail)", () => {
  const states = new Map<number, LiveState>();
  out = raws.map((raw) => {
    const device = devices.get(raw.uniqueId)!;
    const current = states.get(device.id);
    const e = enrichPosition(raw, device, current, current?.tail.at(-1));
    states.set(device.id, e.state);
    return e;
  });
});
cpuUs("Buffer.from(JSON.stringify(enriched))", () => {
  for (const e of out) Buffer.from(JSON.stringify(e.enriched));
});
cpuUs("history JSONEachRow line (toInsertRecords-like)", () => {
  const lines = out.map((e) => {
    const h = e.history;
    return JSON.stringify({
      id: h.id,
      device_id: h.deviceId,
      unique_id: h.uniqueId,
      protocol: h.protocol,
      fix_time: new Date(h.fixTime).toISOString().slice(0, 23).replace("T", " "),
      server_time: new Date(h.serverTime).toISOString().slice(0, 23).replace("T", " "),
      latitude: h.latitude,
      longitude: h.longitude,
      altitude: h.altitude,
      course: h.course,
      speed: h.speedKmh,
      distance: h.distanceKm,
      valid: h.valid ? 1 : 0,
      attributes: JSON.stringify(h.attributes),
    });
  });
  Buffer.from(lines.join("\n"));
});
cpuUs("live state JSON (per position; shipped: per device per batch)", () => {
  for (const e of out) JSON.stringify(e.state);
});
