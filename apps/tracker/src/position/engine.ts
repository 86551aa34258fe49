import { ENGINE_STEP_MAX_MS, type LiveState, type RawPosition } from "@fleet/contracts";
import { engineOn } from "@fleet/sensors";
import type { DeviceInfo } from "../handlers/device-directory.js";
import type { PositionHandler } from "./context.js";

/** Whether the engine runs at this fix, by the device's engine sensor, else `held` (the state before it) when the sensor reads nothing, else motion. */
export function engineOnAt(device: DeviceInfo, raw: RawPosition, speedKmh: number, held?: boolean): boolean {
  const sensors = device.engineSensor ? [device.engineSensor] : [];
  return engineOn({ detectEngine: device.detectEngine ?? "gps", minMovingSpeed: device.minMovingSpeed }, sensors, { attributes: raw.attributes, speedKmh }, held);
}

/**
 * Engine-on seconds after a new latest fix, counted as Traccar counts engine hours: the
 * time since the previous latest fix is added when the engine was on at both, unless it is
 * longer than ENGINE_STEP_MAX_MS. A state from before the tracker counted starts from zero.
 */
function engineSecondsAfter(current: LiveState | undefined, on: boolean, fixTime: number): number {
  const before = current?.engineSeconds ?? 0;
  const step = current ? fixTime - current.fixTime : 0;
  if (!current?.engineOn || !on || step > ENGINE_STEP_MAX_MS) return before;
  return before + Math.max(0, step) / 1000;
}

/**
 * Engine state at every fix (history keeps it, so engine time can be summed again from
 * there) and engine time, which only the newest fix moves. Reads the speed in km/h.
 */
export const engine: PositionHandler = (ctx) => {
  const { current, raw } = ctx;
  // A new latest fix the sensor reads nothing at keeps the engine state of the one before; a
  // late fix has no state known just before it, and goes by motion.
  ctx.engineOn = engineOnAt(ctx.device, raw, ctx.speedKmh, ctx.newest ? current?.engineOn : undefined);
  ctx.engineSeconds = ctx.newest ? engineSecondsAfter(current, ctx.engineOn, raw.fixTime) : (current!.engineSeconds ?? 0);
};
