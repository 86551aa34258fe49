import { notificationRecipients, userClock, type LiveState, type UserClock } from "@fleet/contracts";
import { isUserUsable, type EventInput, type EventNotification, type ServiceToCheck } from "@fleet/db";
import { dueReminder, serviceCounters, todayIn, type SensorDefinition, type ServiceState } from "@fleet/sensors";
import { emailLabelsFor } from "../messages.js";
import { oneLine } from "../notify/payloads.js";
import { reminderMessagesFor } from "./messages.js";

/*
 * A maintenance service reminds its owner once per cycle, when the device's odometer, engine
 * hours or the date reaches its reminder (expires − trigger_event_left), as the vendor's
 * service checker does: an event of type "service" in the owner's events, a mail to the
 * service's addresses and an SMS to its numbers through the owner's gateway. A renewing
 * service rolls into a new cycle at expiry (service-state.ts), and each cycle reminds again,
 * also one it rolled over before a look saw it at its reminder.
 */

/** A reminder due now: the event and its notifications, and the cycle to mark as reminded. */
export interface ServiceReminder {
  check: ServiceToCheck;
  cycle: string;
  event: EventInput;
  notifications: EventNotification[];
}

/** Where the service falls due, as its owner reads amounts: "17000 km", "1500 h", or the date. */
function dueAt(state: ServiceState): string {
  return state.unit === "days" ? state.expires : `${state.expires} ${state.unit}`;
}

/**
 * Names one reminder for its owner: the service, its terms as they were (an edit makes a new
 * reminder, while marking it does not: that changes updated_at after the key is used) and the cycle.
 */
export const reminderKey = (check: ServiceToCheck, cycle: string) => `service:${check.service.id}:${check.service.updatedAt.getTime()}:${cycle}`;

function notificationsOf(check: ServiceToCheck, message: string, clock: UserClock, at: number): EventNotification[] {
  const { service, device, user } = check;
  const out: EventNotification[] = [];
  const to = [...new Set(notificationRecipients(service.email))];
  if (to.length > 0) {
    const label = emailLabelsFor(user.lang);
    out.push({
      channel: "email",
      payload: { to, subject: oneLine(`${message} (${device.name})`).slice(0, 300), text: `${message}\n\n${label.device}: ${oneLine(device.name)}\n${label.time}: ${clock.format(at)}\n` },
    });
  }
  const numbers = [...new Set(notificationRecipients(service.mobilePhone))];
  if (numbers.length > 0) out.push({ channel: "sms", payload: { to: numbers, message: `${message} (${device.name})`.slice(0, 300) } });
  return out;
}

/**
 * The reminders due at `now` among these services: each of a usable account, whose current
 * cycle reached its reminder and was not reminded yet. `states` and `sensors` are by device;
 * a device that never reported counts from 0 and is placed at 0, 0.
 */
export function dueReminders(checks: readonly ServiceToCheck[], states: ReadonlyMap<number, LiveState>, sensors: ReadonlyMap<number, readonly SensorDefinition[]>, now: number): ServiceReminder[] {
  const clocks = new Map<number, UserClock>();
  const out: ServiceReminder[] = [];
  for (const check of checks) {
    const { service, device, user } = check;
    if (!isUserUsable(user, new Date(now))) continue;
    let clock = clocks.get(user.id);
    if (!clock) clocks.set(user.id, (clock = userClock({ timezoneId: user.timezoneId, dst: user.dst })));
    const live = states.get(device.id);
    const counters = serviceCounters(device, sensors.get(device.id) ?? [], live);
    const due = dueReminder(service, { ...counters, today: todayIn(now, clock) }, user.unitOfDistance);
    if (!due) continue;
    const say = reminderMessagesFor(user.lang);
    // A renewing service is never shown expired: the cycle it rolled over was due where it ended.
    const message = due.state.expired && !due.rolledOver ? say.expired(service.name) : say.due(service.name, dueAt(due.state));
    out.push({
      check,
      cycle: due.cycle,
      event: {
        userId: user.id,
        deviceId: device.id,
        type: "service",
        message,
        time: new Date(now),
        latitude: live?.latitude ?? 0,
        longitude: live?.longitude ?? 0,
        speedKmh: live?.speedKmh ?? 0,
        altitudeM: live?.altitude ?? 0,
        course: live?.course ?? null,
        positionId: live?.positionId ?? null,
        serviceId: service.id,
        dedupeKey: reminderKey(check, due.cycle),
      },
      notifications: notificationsOf(check, message, clock, now),
    });
  }
  return out;
}
