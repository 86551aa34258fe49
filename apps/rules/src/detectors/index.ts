import type { AlertTypeName } from "@fleet/contracts";
import type { Detector, DetectorInput, DetectorResult } from "../detector.js";
import { custom } from "./custom.js";
import { distance } from "./distance.js";
import { driver } from "./driver.js";
import { fuelChange } from "./fuel-change.js";
import { idleDuration, ignitionDuration, stopDuration } from "./durations.js";
import { geofence } from "./geofence.js";
import { overspeed } from "./overspeed.js";
import { sos } from "./sos.js";

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
  distance: erased(distance),
  sos: erased(sos),
  fuel_change: erased(fuelChange),
};
