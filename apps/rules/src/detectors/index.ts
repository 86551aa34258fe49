import type { AlertTypeName } from "@fleet/contracts";
import type { Detector, DetectorInput, DetectorResult } from "../detector.js";
import { custom } from "./custom.js";
import { distance } from "./distance.js";
import { sos, unplugged } from "./alarms.js";
import { driver, driverUnauthorized } from "./driver.js";
import { fuelChange } from "./fuel-change.js";
import { idleDuration, ignitionDuration, moveDuration, poiIdleDuration, poiStopDuration, stopDuration } from "./durations.js";
import { ignition, moveStart } from "./edges.js";
import { geofence } from "./geofence.js";
import { overspeed } from "./overspeed.js";

/** A detector whose memory type is forgotten: memories come back from the live store as JSON anyway. */
export type AnyDetector = (input: DetectorInput, previous: unknown) => DetectorResult<unknown>;
const erased = <S>(d: Detector<S>) => d as AnyDetector;

/**
 * The detector each alert type runs on positions. offline_duration has none: a silent
 * device sends no position, so the sweep finds it.
 */
export const DETECTORS: Partial<Record<AlertTypeName, AnyDetector>> = {
  overspeed: erased(overspeed),
  geofence_in: erased(geofence),
  geofence_out: erased(geofence),
  geofence_inout: erased(geofence),
  custom: erased(custom),
  stop_duration: erased(stopDuration),
  idle_duration: erased(idleDuration),
  ignition_duration: erased(ignitionDuration),
  driver: erased(driver),
  driver_unauthorized: erased(driverUnauthorized),
  distance: erased(distance),
  sos: erased(sos),
  unplugged: erased(unplugged),
  ignition: erased(ignition),
  move_start: erased(moveStart),
  move_duration: erased(moveDuration),
  poi_stop_duration: erased(poiStopDuration),
  poi_idle_duration: erased(poiIdleDuration),
  fuel_change: erased(fuelChange),
};
