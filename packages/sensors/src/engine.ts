import { onOffValue } from "./readings.js";
import type { EngineDevice, OnOffSensor, SensorInput } from "./types.js";
import { tagValue } from "./values.js";

/**
 * Whether the engine runs, by the device's `detect_engine`: the first sensor of that
 * type (ignition, acc or engine) when it gives an on/off reading. A fix the sensor reads
 * nothing at (a heartbeat or an alarm without the tag) keeps `held`, the state known before
 * it, when there is one: it says nothing of the engine, and guessing from motion would turn
 * a standing vehicle's running engine off and on again. Otherwise, and for "gps", motion
 * (speed at or above the device's minimum moving speed), as a device without a usable
 * sensor has nothing better to go by.
 */
export function engineOn(device: EngineDevice, sensors: readonly OnOffSensor[], input: Pick<SensorInput, "attributes" | "speedKmh">, held?: boolean): boolean {
  if (device.detectEngine !== "gps") {
    const sensor = sensors.find((s) => s.type === device.detectEngine);
    const on = sensor ? onOffValue(sensor, tagValue(input.attributes, sensor.tagName)) : null;
    if (on !== null) return on;
    if (sensor && held !== undefined) return held;
  }
  return input.speedKmh >= device.minMovingSpeed;
}

/** The sensor engine detection reads for this device, if it has one. */
export function engineSensorOf<S extends OnOffSensor>(detectEngine: string, sensors: readonly S[]): S | undefined {
  return detectEngine === "gps" ? undefined : sensors.find((s) => s.type === detectEngine);
}

/**
 * Whether a fix counts as moving, the one rule history's groups and the rules service's
 * detectors share: the engine runs (always, for a device without an engine sensor) and the
 * speed is above the device's minimum moving speed.
 */
export function isMoving(speedKmh: number, minMovingSpeedKmh: number, engine: { hasSensor: boolean; on: boolean }): boolean {
  return (!engine.hasSensor || engine.on) && speedKmh > minMovingSpeedKmh;
}
