import { UNCHANGED, quiet, type Detector, type DetectorInput } from "../detector.js";
import { messagesFor, type EventMessages } from "../messages.js";
import type { RuleAlert } from "../model.js";
import { poiAt } from "./pois.js";

export interface SpellMemory {
  /** Fix time the condition began to hold; null while it does not. */
  since: number | null;
  fired: boolean;
  /** Fix time the condition stopped holding, while the spell's grace keeps it going. */
  broke?: number;
}

type SpellType = "stop_duration" | "idle_duration" | "ignition_duration" | "move_duration" | "poi_stop_duration" | "poi_idle_duration";

/** A duration alert's condition. */
export interface Spell {
  type: SpellType;
  /** The alert attribute holding its minutes. */
  minutes: "stop_duration" | "idle_duration" | "ignition_duration" | "move_duration";
  holds(input: DetectorInput): boolean;
  /** Whether it holds only at one of the alert's points of interest, which its event names. */
  atPoi?: boolean;
  /** How its event reads in the owner's language (`poi`: the point's name, for a spell at one). */
  say(messages: EventMessages, minutes: number, poi: string): string;
  /** Minutes the condition may break without ending the spell (a movement's short stops); none by default. */
  grace?(alert: RuleAlert): number;
}

const MINUTE = 60_000;

const NOT_HOLDING: SpellMemory = Object.freeze({ since: null, fired: false });

/**
 * A condition that lasts: fires once per spell, when the spell has lasted the alert's
 * minutes, and not again until the condition broke and began again (the vendor's duration
 * alerts). The event belongs to the spell (its start), not to a position, so the position
 * that crossed the limit and the sweep over silent devices record it once between them.
 */
function spellDetector(spell: Spell): Detector<SpellMemory> {
  return (input, previous) => {
    const { position, alert } = input;
    const minutes = alert.attributes[spell.minutes];
    if (minutes === undefined) return UNCHANGED;
    if (!spell.holds(input)) {
      if (previous?.since == null) return previous?.since === null && !previous.fired ? UNCHANGED : quiet(NOT_HOLDING);
      // Within its grace the spell goes on (not firing meanwhile); past it, it has ended.
      const broke = previous.broke ?? position.fixTime;
      if (position.fixTime - broke < (spell.grace?.(alert) ?? 0) * MINUTE) return previous.broke === broke ? UNCHANGED : quiet({ since: previous.since, fired: previous.fired, broke });
      return quiet(NOT_HOLDING);
    }
    const since = previous?.since ?? position.fixTime;
    const fired = previous?.since != null && previous.fired;
    if (fired || position.fixTime - since < minutes * MINUTE) return previous?.since === since && previous.fired === fired && previous.broke === undefined ? UNCHANGED : quiet({ since, fired });
    const poi = spell.atPoi ? (poiAt(input.device, alert, position)?.name ?? "") : "";
    return { events: [{ type: spell.type, message: spell.say(messagesFor(input.owner.lang), minutes, poi), episode: since }], next: { since, fired: true } };
  };
}

const standing = ({ position }: DetectorInput) => !position.moving;
const idling = ({ position }: DetectorInput) => position.engineOn && !position.moving;
const atPoi = (input: DetectorInput) => poiAt(input.device, input.alert, input.position) !== undefined;

/**
 * The duration alerts' conditions, by type: the detectors below, and the sweep, which carries
 * a silent device's spell on past its last position with the same minutes and wording.
 * poi_stop_duration and poi_idle_duration: standing (or idling) within the alert's
 * distance_tolerance of one of its points of interest for longer than its stop_duration (or
 * idle_duration) minutes, once per stop; the message names the nearest of them.
 * move_duration: moving for longer than the alert's minutes, once per movement; a stop
 * shorter than its min_parking_duration (traffic, a crossing) does not end the movement, and
 * the time it takes counts toward it.
 */
export const SPELLS = {
  stop_duration: { type: "stop_duration", minutes: "stop_duration", holds: standing, say: (m, n) => m.stopDuration(n) },
  idle_duration: { type: "idle_duration", minutes: "idle_duration", holds: idling, say: (m, n) => m.idleDuration(n) },
  ignition_duration: { type: "ignition_duration", minutes: "ignition_duration", holds: ({ position }) => position.engineOn, say: (m, n) => m.ignitionDuration(n) },
  move_duration: { type: "move_duration", minutes: "move_duration", holds: ({ position }) => position.moving, say: (m, n) => m.moveDuration(n), grace: (alert) => alert.attributes.min_parking_duration ?? 0 },
  poi_stop_duration: { type: "poi_stop_duration", minutes: "stop_duration", holds: (input) => standing(input) && atPoi(input), atPoi: true, say: (m, n, poi) => m.poiStopDuration(poi, n) },
  poi_idle_duration: { type: "poi_idle_duration", minutes: "idle_duration", holds: (input) => idling(input) && atPoi(input), atPoi: true, say: (m, n, poi) => m.poiIdleDuration(poi, n) },
} as const satisfies Record<SpellType, Spell>;

export const stopDuration = spellDetector(SPELLS.stop_duration);
export const idleDuration = spellDetector(SPELLS.idle_duration);
export const ignitionDuration = spellDetector(SPELLS.ignition_duration);
export const moveDuration = spellDetector(SPELLS.move_duration);
export const poiStopDuration = spellDetector(SPELLS.poi_stop_duration);
export const poiIdleDuration = spellDetector(SPELLS.poi_idle_duration);
