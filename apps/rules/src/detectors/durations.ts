import type { EnrichedPosition } from "@fleet/contracts";
import { UNCHANGED, quiet, type Detector } from "../detector.js";
import { messagesFor, type EventMessages } from "../messages.js";
import type { RuleAlert } from "../model.js";

export interface SpellMemory {
  /** Fix time the condition began to hold; null while it does not. */
  since: number | null;
  fired: boolean;
  /** Fix time the condition stopped holding, while the spell's grace keeps it going. */
  broke?: number;
}

type SpellType = "stop_duration" | "idle_duration" | "ignition_duration" | "move_duration";

/** Which message a duration alert's event reads as. */
const SPELL_MESSAGE = {
  stop_duration: "stopDuration",
  idle_duration: "idleDuration",
  ignition_duration: "ignitionDuration",
  move_duration: "moveDuration",
} as const satisfies Record<SpellType, keyof EventMessages>;

/** How a duration alert's event reads in its owner's language. */
const spellMessage = (type: SpellType, lang: string, minutes: number): string => messagesFor(lang)[SPELL_MESSAGE[type]](minutes);

/** A duration alert's condition. */
interface Spell {
  type: SpellType;
  holds(p: EnrichedPosition): boolean;
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
  return ({ position, alert, owner }, previous) => {
    const minutes = alert.attributes[spell.type];
    if (minutes === undefined) return UNCHANGED;
    if (!spell.holds(position)) {
      if (previous?.since == null) return previous?.since === null && !previous.fired ? UNCHANGED : quiet(NOT_HOLDING);
      // Within its grace the spell goes on (not firing meanwhile); past it, it has ended.
      const broke = previous.broke ?? position.fixTime;
      if (position.fixTime - broke < (spell.grace?.(alert) ?? 0) * MINUTE) return previous.broke === broke ? UNCHANGED : quiet({ since: previous.since, fired: previous.fired, broke });
      return quiet(NOT_HOLDING);
    }
    const since = previous?.since ?? position.fixTime;
    const fired = previous?.since != null && previous.fired;
    if (fired || position.fixTime - since < minutes * MINUTE) return previous?.since === since && previous.fired === fired && previous.broke === undefined ? UNCHANGED : quiet({ since, fired });
    return { events: [{ type: spell.type, message: spellMessage(spell.type, owner.lang, minutes), episode: since }], next: { since, fired: true } };
  };
}

export const stopDuration = spellDetector({ type: "stop_duration", holds: (p) => !p.moving });
export const idleDuration = spellDetector({ type: "idle_duration", holds: (p) => p.engineOn && !p.moving });
export const ignitionDuration = spellDetector({ type: "ignition_duration", holds: (p) => p.engineOn });
/**
 * move_duration: moving for longer than the alert's minutes, once per movement; a stop
 * shorter than its min_parking_duration (traffic, a crossing) does not end the movement, and
 * the time it takes counts toward it.
 */
export const moveDuration = spellDetector({ type: "move_duration", holds: (p) => p.moving, grace: (alert) => alert.attributes.min_parking_duration ?? 0 });
