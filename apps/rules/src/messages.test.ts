import { describe, expect, it } from "vitest";
import { SupportedLangs } from "@fleet/contracts";
import { NO_NOTIFICATIONS } from "@fleet/db";
import type { RuleState } from "@fleet/live";
import { evaluateDevice, type Found } from "./evaluate.js";
import { EMAIL_LABELS, EVENT_MESSAGES, emailLabelsFor, messagesFor, type EventMessages, type Lang } from "./messages.js";
import { notificationsOf } from "./notify/payloads.js";
import { alert, deviceRules, square, track, runTrack, user } from "./testing.js";

/** Each message with arguments that must show in what it writes. */
const calls: { [K in keyof EventMessages]: { args: Parameters<EventMessages[K]>; shows: string[] } } = {
  overspeed: { args: ["95 kph", "90 kph"], shows: ["95 kph", "90 kph"] },
  geofenceIn: { args: ["Depot Nr. 1"], shows: ["Depot Nr. 1"] },
  geofenceOut: { args: ["Depot Nr. 1"], shows: ["Depot Nr. 1"] },
  stopDuration: { args: [17], shows: ["17"] },
  idleDuration: { args: [18], shows: ["18"] },
  ignitionDuration: { args: [19], shows: ["19"] },
  offlineDuration: { args: [20], shows: ["20"] },
  driverChanged: { args: ["Ann Smith"], shows: ["Ann Smith"] },
  driverUnauthorized: { args: ["0a1b2c"], shows: ["0a1b2c"] },
  sos: { args: [], shows: ["SOS"] },
  unplugged: { args: [], shows: [] },
  ignitionOn: { args: [], shows: [] },
  ignitionOff: { args: [], shows: [] },
  moveStart: { args: [], shows: [] },
  moveDuration: { args: [21], shows: ["21"] },
  poiStopDuration: { args: ["Warehouse 3", 22], shows: ["Warehouse 3", "22"] },
  poiIdleDuration: { args: ["Warehouse 3", 23], shows: ["Warehouse 3", "23"] },
  distance: { args: ["12.3 mi"], shows: ["12.3 mi"] },
  fuelFilled: { args: ["30 l"], shows: ["30 l"] },
  fuelDropped: { args: ["7.5 gal"], shows: ["7.5 gal"] },
};

const say = (m: EventMessages, k: keyof EventMessages) => (m[k] as (...a: unknown[]) => string)(...calls[k].args);

describe("event messages", () => {
  it("has a table for each language the API accepts, and nothing else", () => {
    expect(Object.keys(EVENT_MESSAGES).sort()).toEqual([...SupportedLangs].sort());
    expect(Object.keys(EMAIL_LABELS).sort()).toEqual([...SupportedLangs].sort());
  });

  it.each(SupportedLangs)("%s: every message writes a non-empty text showing its values", (lang) => {
    const m = messagesFor(lang);
    for (const k of Object.keys(calls) as (keyof EventMessages)[]) {
      const text = say(m, k);
      expect(text.trim(), `${lang}.${k}`).not.toBe("");
      for (const v of calls[k].shows) expect(text, `${lang}.${k}`).toContain(v);
    }
    for (const label of Object.values(emailLabelsFor(lang))) expect(label.trim()).not.toBe("");
  });

  it("says the other languages in their own words, not in English", () => {
    const en = messagesFor("en");
    for (const lang of SupportedLangs.filter((l) => l !== "en")) {
      for (const k of Object.keys(calls) as (keyof EventMessages)[]) if (k !== "sos") expect(say(messagesFor(lang), k), `${lang}.${k}`).not.toBe(say(en, k));
    }
  });

  it("writes English as it always has, and these translations exactly", () => {
    expect(messagesFor("en").overspeed("95 kph", "90 kph")).toBe("Overspeed: 95 kph (limit 90 kph)");
    expect(messagesFor("en").geofenceIn("Depot")).toBe("Entered Depot");
    expect(messagesFor("en").offlineDuration(60)).toBe("Offline for more than 60 min");
    expect(messagesFor("lt").overspeed("95 kph", "90 kph")).toBe("Greičio viršijimas: 95 kph (leistinas 90 kph)");
    expect(messagesFor("lt").geofenceIn("Depot")).toBe("Įvažiavimas į geozoną: Depot");
    expect(messagesFor("de").overspeed("95 kph", "90 kph")).toBe("Geschwindigkeitsüberschreitung: 95 kph (zulässig 90 kph)");
    expect(messagesFor("de").geofenceIn("Depot")).toBe("Geozone betreten: Depot");
    expect(messagesFor("ru").stopDuration(10)).toBe("Стоянка более 10 мин");
  });

  it("falls back to English for a language it lacks, including names an object inherits", () => {
    for (const lang of ["", "xx", "EN", "pt-BR", "constructor", "__proto__", "toString"]) {
      expect(messagesFor(lang)).toBe(EVENT_MESSAGES.en);
      expect(emailLabelsFor(lang)).toBe(EMAIL_LABELS.en);
    }
  });

  it("does not compile a table that leaves out a language or a message", () => {
    // Type-level: tsc checks these lines (vitest does not), failing if a partial table were accepted.
    // @ts-expect-error a language is missing
    const missingLang: Record<Lang, EventMessages> = { en: EVENT_MESSAGES.en };
    const { sos: _sos, ...withoutSos } = EVENT_MESSAGES.en;
    // @ts-expect-error a message is missing
    const partial: EventMessages = withoutSos;
    expect([missingLang, partial]).toHaveLength(2);
  });
});

describe("detectors in the owner's language", () => {
  const lithuanian = [user({ lang: "lt" })];

  it("an overspeed and a geofence entry for an owner reading Lithuanian", () => {
    const speeds = [50, 95];
    const fast = runTrack(deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 } })], { users: lithuanian }), track(2, 10_000, (i) => ({ speedKmh: speeds[i]! })));
    expect(fast.events.map((e) => e.message)).toEqual(["Greičio viršijimas: 95 kph (leistinas 90 kph)"]);

    const depot = square(3, "Depot", 54.7, 25.3);
    const path = [{ latitude: 54.5, longitude: 25.0 }, { latitude: 54.7, longitude: 25.3 }, { latitude: 54.5, longitude: 25.0 }];
    const crossing = runTrack(deviceRules([alert({ type: "geofence_inout", geofences: [3] })], { users: lithuanian, geofences: [depot] }), track(3, 10_000, (i) => path[i]!));
    expect(crossing.events.map((e) => [e.type, e.message])).toEqual([
      ["geofence_in", "Įvažiavimas į geozoną: Depot"],
      ["geofence_out", "Išvažiavimas iš geozonos: Depot"],
    ]);
  });

  it("a duration alert and a driver change too; a custom event keeps its owner's own text", () => {
    const stopped = runTrack(deviceRules([alert({ type: "stop_duration", attributes: { stop_duration: 10 } })], { users: lithuanian }), track(3, 6 * 60_000));
    expect(stopped.events.map((e) => e.message)).toEqual(["Stovi ilgiau nei 10 min"]);

    const cards = ["aa01", "bb02"];
    const changed = runTrack(
      deviceRules([alert({ type: "driver" })], { users: lithuanian, drivers: [{ id: 1, name: "Ona", rfid: "bb02" }] }),
      track(2, 10_000, (i) => ({ attributes: { rfid: cards[i]! } })),
    );
    expect(changed.events.map((e) => e.message)).toEqual(["Pasikeitė vairuotojas: Ona"]);

    const custom = { id: 5, protocol: "osmand", conditions: [{ tag: "batt", type: 3 as const, tag_value: "20" }], message: "Battery low", always: false };
    const batt = [50, 10];
    const low = runTrack(deviceRules([alert({ type: "custom", customEvents: [5] })], { users: lithuanian, customEvents: [custom] }), track(2, 10_000, (i) => ({ attributes: { batt: batt[i]! } })));
    expect(low.events.map((e) => e.message)).toEqual(["Battery low"]);
  });

  it("labels a notification email in the owner's language, and in English as before", () => {
    const mailed = (lang: string) => {
      const notifications = { ...NO_NOTIFICATIONS, email: { active: true, input: "ops@example.com" } };
      const rules = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 }, notifications })], { users: [user({ lang })] });
      const speeds = [50, 95];
      let state: RuleState | undefined;
      const found: Found[] = [];
      for (const p of track(2, 10_000, (i) => ({ speedKmh: speeds[i]! }))) {
        const out = evaluateDevice(rules, [p], state);
        found.push(...out.found);
        state = out.state;
      }
      expect(found).toHaveLength(1);
      const [mail] = notificationsOf(found[0]!, rules).filter((n) => n.channel === "email");
      return mail!.payload as { subject: string; text: string };
    };
    expect(mailed("en")).toEqual({
      to: ["ops@example.com"],
      subject: "test: Overspeed: 95 kph (limit 90 kph) (Truck 1)",
      text: "Overspeed: 95 kph (limit 90 kph)\n\nDevice: Truck 1\nTime: 2026-11-23 08:00:10\nPosition: 54.690000, 25.280000\nAlert: test\n",
      // The address is looked up when the mail goes (notify/channels.ts), under this label.
      place: { lat: 54.69, lng: 25.28, label: "Address" },
    });
    expect(mailed("de").text).toBe("Geschwindigkeitsüberschreitung: 95 kph (zulässig 90 kph)\n\nGerät: Truck 1\nZeit: 2026-11-23 08:00:10\nPosition: 54.690000, 25.280000\nAlarm: test\n");
    expect(mailed("lt").subject).toBe(`test: Greičio viršijimas: 95 kph (leistinas 90 kph) (Truck 1)`);
    expect((mailed("de") as { place?: { label: string } }).place?.label).toBe("Adresse");
  });
});
