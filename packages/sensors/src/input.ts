import type { LiveState } from "@fleet/contracts";
import type { SensorInput } from "./types.js";

/** What readings are computed from, out of a device's live state. */
export function sensorInput(state: LiveState): SensorInput {
  return {
    attributes: state.attributes,
    speedKmh: state.speedKmh,
    odometerKm: state.odometerKm,
    // States written before the tracker counted engine time have none yet.
    engineSeconds: state.engineSeconds ?? 0,
  };
}
