import { isValidFix, notificationRecipients } from "@fleet/contracts";
import type { EventNotification } from "@fleet/db";
import type { Found } from "../evaluate.js";
import { emailLabelsFor } from "../messages.js";
import type { DeviceRules } from "../model.js";

/*
 * What each of an alert's channels will send about an event, built when the event is found
 * (the owner's units, the device's and geofence's names as they are then) and queued with
 * it. The event's id is added when it is inserted (queueNotifications). The event's message
 * is already in the owner's language; an email's labels follow it (messages.ts), while the
 * webhook's keys stay as Traccar names them.
 */

/** Traccar's `status.timeout`: a device silent for longer is `unknown`, neither online nor (until an offline alert says so) offline. */
const STATUS_TIMEOUT_MS = 600_000;

/** The device's status as Traccar's webhook names it, when the event is found. */
function statusOf(type: string, lastUpdate: number, now: number): "online" | "offline" | "unknown" {
  if (type === "offline_duration") return "offline";
  return now - lastUpdate > STATUS_TIMEOUT_MS ? "unknown" : "online";
}

/**
 * The body of a webhook: Traccar's EventForwarderJson `{event, position, device, geofence?}`,
 * with its fields, speeds in the owner's units (named by speedUnit), times as ISO strings.
 * The platform keeps one time per fix, so deviceTime is the fix time.
 */
export function webhookBody(found: Found, rules: DeviceRules, now = Date.now()) {
  const { alert, event, position } = found;
  const units = rules.users.get(alert.userId)!.units;
  const geofence = event.geofenceId != null ? rules.geofences.get(event.geofenceId) : undefined;
  const accuracy = position.attributes.accuracy;
  return {
    event: {
      type: event.type,
      eventTime: event.time.toISOString(),
      deviceId: event.deviceId,
      positionId: event.positionId ?? null,
      geofenceId: event.geofenceId ?? null,
      attributes: found.attributes ?? {},
      alertId: alert.id,
      alertName: alert.name,
      message: event.message,
    },
    position: {
      id: event.positionId ?? null,
      deviceId: event.deviceId,
      protocol: position.protocol,
      serverTime: new Date(position.serverTime).toISOString(),
      deviceTime: new Date(position.fixTime).toISOString(),
      fixTime: new Date(position.fixTime).toISOString(),
      valid: isValidFix(position.attributes),
      latitude: event.latitude,
      longitude: event.longitude,
      altitude: Math.round(units.altitude(event.altitudeM ?? 0)),
      altitudeUnit: units.altitudeUnit,
      speed: Math.round(units.speed(event.speedKmh ?? 0)),
      speedUnit: units.speedUnit,
      course: event.course ?? null,
      address: event.address ?? "",
      accuracy: typeof accuracy === "number" ? accuracy : 0,
      attributes: position.attributes,
    },
    device: {
      id: rules.deviceId,
      name: rules.name,
      uniqueId: position.uniqueId,
      status: statusOf(event.type, position.serverTime, now),
      lastUpdate: new Date(position.serverTime).toISOString(),
      positionId: position.id,
      groupId: rules.groups?.get(alert.userId) ?? null,
      phone: rules.phone ?? "",
      model: rules.model ?? "",
      attributes: {},
    },
    ...(geofence ? { geofence: { id: geofence.id, name: geofence.name } } : {}),
  };
}

/**
 * Text for a mail's subject, a header line: names and a custom event's message may hold a tab, a
 * line break or a DEL, which the mailer refuses there (so the mail would be lost), each run a space.
 */
// eslint-disable-next-line no-control-regex -- replacing control characters is the point
export const oneLine = (text: string) => text.replace(/[\x00-\x1f\x7f]+/g, " ").trim() || "-";

/**
 * The notifications of one found event: one per active channel the rules service delivers,
 * each carrying the alert's silence when it has one on (recordEvents leaves them out when
 * the event repeats one of the same alert, device, geofence and type within it).
 */
export function notificationsOf(found: Found, rules: DeviceRules): EventNotification[] {
  const { notifications } = found.alert;
  const out: EventNotification[] = [];
  const silent = notifications.silent;
  const silentMinutes = silent?.active && silent.input > 0 ? silent.input : undefined;
  const url = notifications.webhook.active ? notifications.webhook.input.trim() : "";
  if (url !== "") out.push({ channel: "webhook", payload: { url, body: webhookBody(found, rules) } });
  // As add_alert checked them: separated by semicolons (or commas), each once.
  const to = notifications.email.active ? [...new Set(notificationRecipients(notifications.email.input))] : [];
  if (to.length > 0) {
    const owner = rules.users.get(found.alert.userId)!;
    const when = owner.clock.format(found.event.time.getTime());
    const label = emailLabelsFor(owner.lang);
    out.push({
      channel: "email",
      payload: {
        to,
        subject: oneLine(`${found.alert.name}: ${found.event.message} (${rules.name})`).slice(0, 300),
        // Names on one line each: a line break in a device's name would write a line of its own into the mail.
        text: `${found.event.message}\n\n${label.device}: ${oneLine(rules.name)}\n${label.time}: ${when}\n${label.position}: ${found.event.latitude.toFixed(6)}, ${found.event.longitude.toFixed(6)}\n${label.alert}: ${oneLine(found.alert.name)}\n`,
        // Where the mail, when it goes, adds the point's address under this label.
        place: { lat: found.event.latitude, lng: found.event.longitude, label: label.address },
      },
    });
  }
  const command = notifications.command;
  if (command?.active && command.type !== "") {
    out.push({ channel: "command", payload: { deviceId: rules.deviceId, imei: found.position.uniqueId, protocol: found.position.protocol, type: command.type } });
  }
  const numbers = notifications.sms.active ? [...new Set(notificationRecipients(notifications.sms.input))] : [];
  if (numbers.length > 0) out.push({ channel: "sms", payload: { to: numbers, message: `${found.event.message} (${rules.name})`.slice(0, 300) } });
  return silentMinutes === undefined ? out : out.map((n) => ({ ...n, silentMinutes }));
}
