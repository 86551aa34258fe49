import { UNCHANGED, quiet, type Detection, type Detector, type DetectorInput } from "../detector.js";
import { messagesFor } from "../messages.js";

export interface EdgeMemory {
  /** Whether the condition held at the device's previous position. */
  on: boolean;
}

const ON: EdgeMemory = Object.freeze({ on: true });
const OFF: EdgeMemory = Object.freeze({ on: false });

/** A condition of one position, and what its changes record. */
export interface Edge {
  holds(input: DetectorInput): boolean;
  /** What the change to holding records; undefined records nothing. */
  rise?(input: DetectorInput): Detection;
  /** What the change to not holding records; undefined records nothing. */
  fall?(input: DetectorInput): Detection;
  /**
   * A device's first position that holds fires, rather than being learnt: for alarms, where
   * a missed one costs more than a repeated one. Otherwise the first position is learnt, as
   * every detector learns (a vehicle already driving has not just started).
   */
  firesOnFirstSight?: boolean;
}

/**
 * An event at each change of a condition, none while it stays (Traccar's handlers that
 * compare a position with the previous one: ignition, motion, alarms).
 */
export function edgeDetector(edge: Edge): Detector<EdgeMemory> {
  return (input, previous) => {
    const on = edge.holds(input);
    if (previous !== undefined && previous.on === on) return UNCHANGED;
    const next = on ? ON : OFF;
    if (previous === undefined && !(on && edge.firesOnFirstSight)) return quiet(next);
    const found = on ? edge.rise?.(input) : edge.fall?.(input);
    return found ? { events: [found], next } : quiet(next);
  };
}

/** ignition: ignition_on and ignition_off as the engine state (the tracker's, from the ignition attribute or sensor) changes. */
export const ignition = edgeDetector({
  holds: ({ position }) => position.engineOn,
  rise: ({ owner }) => ({ type: "ignition_on", message: messagesFor(owner.lang).ignitionOn() }),
  fall: ({ owner }) => ({ type: "ignition_off", message: messagesFor(owner.lang).ignitionOff() }),
});

/** move_start: the device began to move (the tracker's motion state, Traccar's deviceMoving). */
export const moveStart = edgeDetector({
  holds: ({ position }) => position.moving,
  rise: ({ owner }) => ({ type: "move_start", message: messagesFor(owner.lang).moveStart() }),
});
