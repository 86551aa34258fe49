import { tankVolume } from "@fleet/sensors";
import { UNCHANGED, quiet, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";
import type { DeviceRules, RuleAlert } from "../model.js";

export interface FuelMemory {
  /**
   * While standing: the level the change is measured from, the level when the device stopped
   * or after the last event of this stop, followed up (for a theft) or down (for a fill) since.
   */
  standingFrom: number | null;
  /**
   * After an event, the level the change has reached while it keeps going the same way (up for
   * a fill, down for a theft): one refuelling read over many positions is one event, however
   * many times its amount passes the threshold. Absent once the level stops.
   */
  going?: number;
}

const FILL = 1;
const THEFT = 2;
const LITRES_PER_GALLON = 3.785411784;
const GALLONS = 2;
const PERCENT = 3;

type Sensor = NonNullable<DeviceRules["fuelSensor"]>;
const thresholds = new WeakMap<RuleAlert, { sensor: Sensor; threshold: number | undefined }>();

/** thresholdOf, worked out once per alert and sensor record rather than at every position. */
function thresholdFor(alert: RuleAlert, sensor: Sensor): number | undefined {
  let kept = thresholds.get(alert);
  if (kept?.sensor !== sensor) thresholds.set(alert, (kept = { sensor, threshold: thresholdOf(alert, sensor) }));
  return kept.threshold;
}

/**
 * The alert's minimum change in the fuel sensor's unit, or undefined when it cannot be said (a
 * percentage of a tank of unknown volume, or litres of a sensor reading percent of one).
 */
function thresholdOf(alert: RuleAlert, sensor: Sensor): number | undefined {
  const amount = alert.attributes.fuel_amount;
  if (amount === undefined) return undefined;
  const unit = alert.attributes.fuel_unit;
  if (sensor.unitOfMeasurement.trim() === "%") {
    // A sensor reading percent of the tank: a percentage as it is, a volume against the tank's litres.
    if (unit === PERCENT) return amount;
    const litres = unit === GALLONS ? amount * LITRES_PER_GALLON : amount;
    return sensor.fullTank ? (litres / sensor.fullTank) * 100 : undefined;
  }
  if (unit === PERCENT) {
    const volume = tankVolume(sensor);
    return volume ? (amount / 100) * volume : undefined;
  }
  const sensorInGallons = /gal/i.test(sensor.unitOfMeasurement);
  if (unit === GALLONS) return sensorInGallons ? amount : amount * LITRES_PER_GALLON;
  return sensorInGallons ? amount / LITRES_PER_GALLON : amount;
}

const shown = (change: number, sensor: Sensor) => {
  const unit = sensor.unitOfMeasurement.trim();
  return `${Math.round(Math.abs(change) * 10) / 10}${unit ? ` ${unit}` : ""}`;
};

/**
 * fuel_change: a fill (`state` 1) or a theft (2) of at least the alert's amount, read from the
 * device's fuel level sensor. While the device stands, the level is compared with the highest
 * (for a theft) or lowest (for a fill) since it stopped, so a fill or a siphoning spread over
 * many positions still counts, and so does a siphoning after a fill in the same stop; while it
 * moves, with the position before (kept once per device by the chain), so what the engine
 * burns along the way is never mistaken for a theft (Traccar's FuelEventHandler compares
 * consecutive positions). Once per episode: a change that fired is followed while it goes on.
 */
export const fuelChange: Detector<FuelMemory> = ({ position, alert, device, owner, fuelLevel, previousFuel }, previous) => {
  const sensor = device.fuelSensor;
  const threshold = sensor && thresholdFor(alert, sensor);
  const level = fuelLevel();
  if (threshold === undefined || level === null) return UNCHANGED;
  const standing = !position.moving && !position.engineOn;
  if (previous === undefined) return quiet({ standingFrom: standing ? level : null });
  const state = alert.attributes.state;
  const way = state === FILL ? 1 : state === THEFT ? -1 : 0;
  // The change that fired is still going on: the same episode, followed to where it stops.
  if (previous.going !== undefined && (level - previous.going) * way > 0) return quiet({ standingFrom: standing ? level : null, going: level });
  const from = standing ? (previous.standingFrom ?? previousFuel ?? level) : (previousFuel ?? level);
  const change = level - from;
  if (state === FILL && change >= threshold) {
    return { events: [{ type: "fuel_fill", message: messagesFor(owner.lang).fuelFilled(shown(change, sensor!)) }], next: { standingFrom: standing ? level : null, going: level } };
  }
  if (state === THEFT && -change >= threshold) {
    return { events: [{ type: "fuel_theft", message: messagesFor(owner.lang).fuelDropped(shown(change, sensor!)) }], next: { standingFrom: standing ? level : null, going: level } };
  }
  // Just stopped: the stop is measured from here, not from the last level on the move, which would count the fuel burnt since as stolen.
  const base = previous.standingFrom ?? level;
  const standingFrom = !standing ? null : state === THEFT ? Math.max(base, level) : state === FILL ? Math.min(base, level) : base;
  return previous.standingFrom === standingFrom && previous.going === undefined ? UNCHANGED : quiet({ standingFrom });
};
