import type { HistoryRange } from "@fleet/contracts";
import type { HistoryStore, TrackTotals } from "@fleet/history";
import { deviceFigures, type DeviceFigures, type DeviceTrack, type TrackFigures } from "@fleet/reports";
import type { LiveRecord } from "../lib/live-records.js";
import { cutSensors } from "./track-cut.js";

/*
 * General information's figures (types 1, 2 and 16). For a device whose track is cut by its
 * speeds and engine state alone, the history engine works them out (HistoryStore.trackTotals,
 * the same cut as get_history's): a fleet's month then never leaves the engine row by row. A
 * device with an engine-hours or fuel sensor needs the sensor's formula read at every fix, so
 * its track is read and cut here, as for every other report type.
 */

export interface FiguresDeps {
  history: Pick<HistoryStore, "trackTotals">;
}

export interface FiguresAsked {
  range: HistoryRange;
  /** The report's minimum stop, in minutes. */
  stopsMinutes: number;
  speedLimitKmh: number | null;
}

const byFormula = ({ device, sensors }: LiveRecord) => {
  const { hours, fuel } = cutSensors(device, sensors);
  return hours !== undefined || fuel !== undefined;
};

/** The engine's totals as a report's figures; a device without a fix in the period has none to show. */
function figuresOf(t: TrackTotals | undefined, speedLimitKmh: number | null): TrackFigures {
  const engine = { engineWorkMs: t?.engineWorkMs ?? 0, engineIdleMs: t?.engineIdleMs ?? 0 };
  return {
    startMs: t?.startMs ?? null,
    endMs: t?.endMs ?? null,
    distanceKm: t?.distanceKm ?? 0,
    driveMs: t?.driveMs ?? 0,
    stopMs: t?.stopMs ?? 0,
    stops: t?.stops ?? 0,
    topSpeedKmh: t?.topSpeedKmh ?? 0,
    overspeeds: speedLimitKmh === null ? 0 : (t?.overspeeds ?? 0),
    ...engine,
    engineHoursMs: engine.engineWorkMs + engine.engineIdleMs,
    fuel: new Map(),
  };
}

/** Each device's figures, in the order asked; `trackOf` reads and cuts the track of a device the engine cannot total. */
export async function generalFigures(deps: FiguresDeps, records: readonly LiveRecord[], asked: FiguresAsked, trackOf: (r: LiveRecord) => Promise<DeviceTrack>): Promise<DeviceFigures[]> {
  const inEngine = records.filter((r) => !byFormula(r));
  const totals = await deps.history.trackTotals({
    devices: inEngine.map(({ device, sensors }) => ({ deviceId: device.id, minMovingSpeedKmh: Number(device.minMovingSpeed), hasEngineSensor: cutSensors(device, sensors).hasEngineSensor })),
    fromMs: asked.range.fromMs,
    toMs: asked.range.toMs,
    minStopMs: asked.stopsMinutes * 60_000,
    speedLimitKmh: asked.speedLimitKmh ?? 0,
  });
  const out: DeviceFigures[] = [];
  for (const r of records) {
    if (byFormula(r)) out.push(deviceFigures(await trackOf(r), asked.speedLimitKmh));
    else out.push({ device: { id: r.device.id, name: r.device.name, plateNumber: r.device.plateNumber }, figures: figuresOf(totals.get(r.device.id), asked.speedLimitKmh) });
  }
  return out;
}
