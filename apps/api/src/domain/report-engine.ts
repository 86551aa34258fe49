import type { HistoryRange } from "@fleet/contracts";
import type { HistoryStore, TrackTotals } from "@fleet/history";
import { GroupStatus } from "@fleet/trips";
import type { DeviceGroups, DeviceTrack, ReportGroup, TrackFigures } from "@fleet/reports";
import type { LiveRecord } from "../lib/live-records.js";
import { cutSensors } from "./track-cut.js";

/*
 * The reports the history engine cuts: general information's figures (types 1, 2, 16) and drives
 * and stops (3, 18). For a device whose track is cut by its speeds and engine state alone the
 * engine works them out (HistoryStore.trackTotals, the same cut as get_history's), so a fleet's
 * month never leaves it row by row. A device with an engine-hours or fuel sensor needs the
 * sensor's formula read at every fix, and the drivers' types need each group's card: those
 * tracks are read and cut in JS, as for every other type.
 */

export interface EngineDeps {
  history: Pick<HistoryStore, "trackTotals">;
}

export interface EngineAsked {
  range: HistoryRange;
  /** The report's minimum stop, in minutes. */
  stopsMinutes: number;
  speedLimitKmh: number | null;
  /** Each device's drives and stops too, not only its totals. */
  groups: boolean;
}

/** Whether the engine can cut this device's track: no sensor of it needs a formula at every fix. */
export function cutByEngine({ device, sensors }: LiveRecord): boolean {
  const { hours, fuel } = cutSensors(device, sensors);
  return hours === undefined && fuel === undefined;
}

/** The engine's cuts of these devices' tracks (each one `cutByEngine`); a device without a fix in the period is absent. */
export function engineCuts(deps: EngineDeps, records: readonly LiveRecord[], asked: EngineAsked): Promise<Map<number, TrackTotals>> {
  return deps.history.trackTotals({
    devices: records.map(({ device, sensors }) => ({ deviceId: device.id, minMovingSpeedKmh: Number(device.minMovingSpeed), hasEngineSensor: cutSensors(device, sensors).hasEngineSensor })),
    fromMs: asked.range.fromMs,
    toMs: asked.range.toMs,
    minStopMs: asked.stopsMinutes * 60_000,
    speedLimitKmh: asked.speedLimitKmh ?? 0,
    groups: asked.groups,
  });
}

/** The engine's totals as a report's figures; a device without a fix in the period has none to show. */
export function engineFigures(t: TrackTotals | undefined, speedLimitKmh: number | null): TrackFigures {
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

/** The engine's drives and stops of a device as the drives and stops types read them. */
export function engineGroups(device: DeviceTrack["device"], t: TrackTotals | undefined, speedLimitKmh: number | null): DeviceGroups {
  const groups = (t?.groups ?? []).map((g): ReportGroup => {
    const durationMs = g.endMs - g.startMs;
    return {
      status: g.status === "drive" ? GroupStatus.drive : GroupStatus.stop,
      startMs: g.startMs,
      endMs: g.endMs,
      durationMs,
      distanceKm: g.distanceKm,
      topSpeedKmh: g.topSpeedKmh,
      averageSpeedKmh: durationMs > 0 ? g.distanceKm / (durationMs / 3_600_000) : 0,
      engineWorkMs: g.engineWorkMs,
      engineIdleMs: g.engineIdleMs,
      engineHoursMs: g.engineWorkMs + g.engineIdleMs,
      fuelConsumed: 0,
      driverKey: null,
      at: { latitude: g.latitude, longitude: g.longitude },
    };
  });
  return { device, fuelUnit: null, figures: engineFigures(t, speedLimitKmh), groups };
}
