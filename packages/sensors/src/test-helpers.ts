import type { SensorDefinition, SensorInput } from "./types.js";

/** A sensor definition for tests: every field null or empty unless given. */
export function sensorDef(overrides: Partial<SensorDefinition> & Pick<SensorDefinition, "type">): SensorDefinition {
  return {
    id: 1,
    name: overrides.type,
    tagName: "",
    unitOfMeasurement: "",
    showInPopup: false,
    onValue: null,
    offValue: null,
    shownValueBy: null,
    minValue: null,
    maxValue: null,
    formula: null,
    odometerValueBy: null,
    odometerValue: null,
    odometerValueUnit: "km",
    odometerBaselineKm: null,
    fullTank: null,
    fullTankValue: null,
    calibrations: null,
    ...overrides,
  };
}

export function sensorIn(attributes: SensorInput["attributes"], rest: Partial<Omit<SensorInput, "attributes">> = {}): SensorInput {
  return { attributes, speedKmh: 0, odometerKm: 0, engineSeconds: 0, ...rest };
}
