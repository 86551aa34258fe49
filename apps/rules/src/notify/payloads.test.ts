import { describe, expect, it } from "vitest";
import { NO_NOTIFICATIONS } from "@fleet/db";
import { MailMessageSchema } from "@fleet/mail";
import { Value } from "@sinclair/typebox/value";
import { evaluateDevice } from "../evaluate.js";
import { T0, alert, deviceRules, track, user } from "../testing.js";
import { notificationsOf, webhookBody } from "./payloads.js";

/** An overspeed alert at 90 km/h on a device of an owner in miles, and the event its track finds. */
function overspeeding() {
  const watching = alert({ type: "overspeed", attributes: { overspeed: 90 } });
  const rules = { ...deviceRules([watching], { users: [user({ unitOfDistance: "mi" })] }), phone: "+37060000000", model: "FMB920", groups: new Map([[7, 3]]) };
  const positions = track(2, 10_000, (i) => ({ speedKmh: i === 0 ? 50 : 120, attributes: { accuracy: 4.5, valid: "true" } }));
  const [found] = evaluateDevice(rules, positions, undefined).found;
  return { rules, found: found!, position: positions[1]! };
}

describe("webhookBody", () => {
  it("carries Traccar's event, position and device fields, speeds in the owner's units", () => {
    const { rules, found, position } = overspeeding();
    const body = webhookBody(found, rules, position.serverTime + 1000);
    expect(body.event).toMatchObject({ type: "overspeed", deviceId: 1, positionId: position.id, geofenceId: null, attributes: { speed: 75, speedLimit: 56 } });
    expect(body.position).toMatchObject({
      id: position.id,
      deviceTime: new Date(position.fixTime).toISOString(),
      fixTime: new Date(position.fixTime).toISOString(),
      serverTime: new Date(position.serverTime).toISOString(),
      valid: true,
      accuracy: 4.5,
      speed: 75,
      speedUnit: "mph",
    });
    expect(body.device).toEqual({
      id: 1,
      name: "Truck 1",
      uniqueId: position.uniqueId,
      status: "online",
      lastUpdate: new Date(position.serverTime).toISOString(),
      positionId: position.id,
      groupId: 3,
      phone: "+37060000000",
      model: "FMB920",
      attributes: {},
    });
  });

  it("says unknown for a device silent past Traccar's ten-minute timeout, and offline for an offline alert", () => {
    const { rules, found, position } = overspeeding();
    expect(webhookBody(found, rules, position.serverTime + 600_001).device.status).toBe("unknown");
    const offline = { ...found, event: { ...found.event, type: "offline_duration" as const } };
    expect(webhookBody(offline, rules, position.serverTime + 1000).device.status).toBe("offline");
  });

  it("marks a fix the device called invalid, and leaves attributes empty where the detector measured nothing", () => {
    const { rules, found } = overspeeding();
    const invalid = { ...found, position: { ...found.position, attributes: { valid: false } }, attributes: undefined };
    const body = webhookBody(invalid, rules, T0);
    expect(body.position).toMatchObject({ valid: false, accuracy: 0 });
    expect(body.event.attributes).toEqual({});
  });
});

describe("an alert's email", () => {
  it("has a subject a mailer sends when the alert's or the device's name holds a tab or a line break", () => {
    const notifications = { ...NO_NOTIFICATIONS, email: { active: true, input: "ops@example.com" } };
    const watching = alert({ name: "Night\nwatch", type: "overspeed", attributes: { overspeed: 90 }, notifications });
    const rules = { ...deviceRules([watching]), name: "Van\t7\r\nBcc: x@example.com" };
    const [found] = evaluateDevice(rules, track(2, 10_000, (i) => ({ speedKmh: i === 0 ? 50 : 120 })), undefined).found;
    const mail = notificationsOf(found!, rules).find((n) => n.channel === "email")!.payload as { to: string[]; subject: string; text: string };
    expect(mail.subject).toBe("Night watch: Overspeed: 120 kph (limit 90 kph) (Van 7 Bcc: x@example.com)");
    expect(mail.text).toContain("\nDevice: Van 7 Bcc: x@example.com\n");
    expect(mail.text).toContain("\nAlert: Night watch\n");
    // What the email channel hands the mailer (the payload's `place` is for the address it adds).
    expect([...Value.Errors(MailMessageSchema, { to: mail.to, subject: mail.subject, text: mail.text })]).toEqual([]);
  });
});
