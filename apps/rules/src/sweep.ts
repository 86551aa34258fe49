import type { EnrichedPosition, LiveState } from "@fleet/contracts";
import type { RuleState } from "@fleet/live";
import type { Detection } from "./detector.js";
import { SPELLS, type SpellMemory } from "./detectors/durations.js";
import { poiAt } from "./detectors/pois.js";
import { eventInput, memoryKey, type Found } from "./evaluate.js";
import { messagesFor } from "./messages.js";
import type { DeviceRules } from "./model.js";
import { inPeriod, inSchedule, inZone } from "./scope.js";

/*
 * What a silent device must fire, found by time rather than by a position: offline for
 * longer than an offline_duration alert's minutes, or in a spell its last position began or
 * continued (stopped, idling, the ignition on, at a point of interest or not) for longer than
 * the duration alert's minutes, when no later position came to say it ended. The
 * vendor checks these durations by a sweep too. Events carry the episode's key, so sweeping
 * again, another instance's sweep, or the position that later crosses the same limit record
 * nothing new.
 */

/** The spells the sweep carries on past a device's last position (not move_duration: a silent device is not moving). */
const SWEPT_SPELLS = ["stop_duration", "poi_stop_duration", "idle_duration", "poi_idle_duration", "ignition_duration"] as const satisfies readonly (keyof typeof SPELLS)[];
const isSwept = (type: string): type is (typeof SWEPT_SPELLS)[number] => (SWEPT_SPELLS as readonly string[]).includes(type);

/** The alert types the sweep looks at. */
export const SWEPT_TYPES = ["offline_duration", ...SWEPT_SPELLS] as const;

const MINUTE = 60_000;

/** The device's last position, as its live state holds it, shaped as the detectors read positions. */
function lastPosition(state: LiveState, userIds: readonly number[]): EnrichedPosition {
  return {
    id: state.positionId,
    deviceId: state.deviceId,
    uniqueId: state.uniqueId,
    protocol: state.protocol,
    latitude: state.latitude,
    longitude: state.longitude,
    altitude: state.altitude,
    course: state.course,
    fixTime: state.fixTime,
    serverTime: state.serverTime,
    attributes: state.attributes,
    speedKmh: state.speedKmh,
    distanceKm: 0,
    userIds: [...userIds],
    latest: true,
    engineOn: state.engineOn ?? false,
    moving: false,
  };
}

/** The events a device's silence makes due at `now`. */
export function sweepDevice(rules: DeviceRules, state: LiveState | undefined, memory: RuleState | undefined, now: number): Found[] {
  if (!state) return [];
  const position = lastPosition(state, [...rules.users.keys()]);
  const found: Found[] = [];
  for (const alert of rules.alerts) {
    const owner = rules.users.get(alert.userId);
    if (!owner) continue;
    let due: { detection: Detection; at: number } | undefined;
    if (alert.type === "offline_duration") {
      const minutes = alert.attributes.offline_duration;
      // Offline since the last contact; the event is dated when the limit passed.
      if (minutes !== undefined && now - state.serverTime > minutes * MINUTE) {
        due = { detection: { type: "offline_duration", message: messagesFor(owner.lang).offlineDuration(minutes), episode: state.serverTime }, at: state.serverTime + minutes * MINUTE };
      }
    } else if (isSwept(alert.type)) {
      const spell = SPELLS[alert.type];
      const minutes = alert.attributes[spell.minutes];
      const held = memory?.[memoryKey(alert)] as SpellMemory | undefined;
      if (minutes !== undefined && held?.since != null && !held.fired && now - held.since >= minutes * MINUTE) {
        // A spell at a point of interest is named by the one its last position is at; none there, none to name.
        const poi = "atPoi" in spell ? poiAt(rules, alert, state)?.name : "";
        if (poi !== undefined) due = { detection: { type: spell.type, message: spell.say(messagesFor(owner.lang), minutes, poi), episode: held.since }, at: held.since + minutes * MINUTE };
      }
    }
    if (!due) continue;
    const inside = new Set(rules.geofenceIndex.get(alert.userId)?.containing({ lat: state.latitude, lng: state.longitude }) ?? []);
    if (!inPeriod(alert, due.at) || !inSchedule(alert, owner, due.at) || !inZone(alert, inside)) continue;
    const event = eventInput(alert, rules, position, due.detection);
    found.push({ alert, event: { ...event, time: new Date(due.at) }, position });
  }
  return found;
}
