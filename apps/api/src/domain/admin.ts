import { FailureError, InvalidInputError, Topics, isTruthy, type AdminClient, type AdminClientBody, type AdminClientsQuery, type UserClock } from "@fleet/contracts";
import { UserGroup, createClient as storeClient, listUnregistered, pageClients, type Db, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import type { DeadLetters } from "../lib/dead-letters.js";
import { pageRequest, pageWindow, paginateLaravel } from "../lib/pagination.js";
import { worded, type Wording } from "./refusals.js";

/*
 * What only administrators may do: create and list clients, see the trackers that match
 * no device, and read and republish dead letters. A taken email is the database's
 * refusal, worded by default ("The email has already been taken.").
 */

/** A client's device list refused, in the words of its field, `objects`. */
export const objectsWording: Wording = {
  deviceIds: { field: "objects", message: (r) => (r.kind === "limit" ? `The objects may hold at most ${r.limit}.` : "The selected objects are invalid.") },
};

type DeadTopic = typeof Topics.positionsDead | typeof Topics.eventsDead;

/** Refuses anyone but an administrator, whatever the request holds. */
export function assertAdministrator(user: User): void {
  if (user.groupId !== UserGroup.administrator) throw new FailureError(403, "This action is for administrators only.");
}

function client(u: User, clock: UserClock): AdminClient {
  return {
    id: u.id,
    email: u.email,
    active: u.active ? 1 : 0,
    group_id: u.groupId,
    devices_limit: u.devicesLimit,
    subscription_expiration: u.expirationDate ? clock.format(u.expirationDate.getTime()) : "0000-00-00 00:00:00",
    loged_at: u.logedAt ? clock.format(u.logedAt.getTime()) : null,
    created_at: clock.format(u.createdAt.getTime()),
    updated_at: clock.format(u.updatedAt.getTime()),
  };
}

/**
 * `expiration_date` as an instant: ISO date-times as given (the schema's date-time format
 * has checked them), `YYYY-MM-DD[ HH:MM[:SS]]` on the administrator's clock, so what is typed
 * reads back as typed (a date alone is its midnight). Undefined for a string shaped like a
 * date that names no real moment (`2099-13-45`, `2099-02-30`, which Date would roll over).
 */
export function parseExpiration(s: string, clock: UserClock): Date | undefined {
  if (s.includes("T")) {
    // The date-time format lets a leap second (…T23:59:60Z) through; Date cannot hold one.
    const d = new Date(s);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  const [date = "", time = "00:00"] = s.split(" ");
  const hms = time.length === 5 ? `${time}:00` : time;
  const wall = new Date(`${date}T${hms}Z`);
  if (Number.isNaN(wall.getTime()) || wall.toISOString().slice(0, 10) !== date) return undefined;
  // The clock reads years up to 2100; a later one at its offset then.
  return new Date(clock.toInstant(date, hms) ?? wall.getTime() - clock.offsetAt(wall.getTime()) * 60_000);
}

export async function createClient(db: Db, admin: User, b: AdminClientBody) {
  if (b.password !== b.password_confirmation) throw new InvalidInputError({ password: "The password confirmation does not match." });
  const expirationDate = isTruthy(b.enable_expiration_date) === false || !b.expiration_date ? null : parseExpiration(b.expiration_date, clockOf(admin));
  if (expirationDate === undefined) throw new InvalidInputError({ expiration_date: "The expiration date is not a valid date." });
  const input = {
    email: b.email,
    password: b.password,
    groupId: b.group_id ?? UserGroup.user,
    active: isTruthy(b.active) ?? true,
    // 0 is no limit, as get_user_data shows it.
    devicesLimit: isTruthy(b.enable_devices_limit) === false || !b.devices_limit ? null : b.devices_limit,
    expirationDate,
  };
  const user = await worded(storeClient(db, input, b.objects), objectsWording);
  return { status: 1 as const, item: client(user, clockOf(admin)) };
}

/**
 * The users, in the vendor's pagination (`path` where the lists say `url`): all of them on
 * one page, as before, unless the request asks for a page size. `url` is the request's, for
 * the page links.
 */
export async function clients(db: Db, admin: User, query: AdminClientsQuery, url: string) {
  const f = query.filter ?? {};
  const search = { text: query.search_phrase, imei: query.search_device, id: f.id, email: f.email, active: isTruthy(f.active), groupId: f.group_id };
  const order = { by: query.sort_by ?? "id", direction: query.sort ?? "asc" } as const;
  if (query.limit !== undefined || query.per_page !== undefined) {
    const page = pageRequest(query);
    const { total, rows } = await pageClients(db, search, order, pageWindow(page));
    return shown(page, total, rows);
  }
  // Without a page size, every match is on one page.
  const { total, rows } = await pageClients(db, search, order);
  const page = pageRequest(query, Math.max(total, 1));
  const { limit, offset } = pageWindow(page);
  return shown(page, total, rows.slice(offset, offset + limit));

  function shown(page: ReturnType<typeof pageRequest>, total: number, rows: User[]) {
    return paginateLaravel({ url }, page, total, rows.map((u) => client(u, clockOf(admin))));
  }
}

export async function unregistered(db: Db, admin: User) {
  const clock = clockOf(admin);
  const rows = await listUnregistered(db);
  return {
    status: 1 as const,
    items: rows.map((r) => ({ unique_id: r.uniqueId, protocol: r.protocol, count: Number(r.count), first_seen: clock.format(r.firstSeen.getTime()), last_seen: clock.format(r.lastSeen.getTime()) })),
  };
}

export async function deadLetterList(deadLetters: DeadLetters, admin: User, topic: DeadTopic = Topics.positionsDead) {
  const clock = clockOf(admin);
  const letters = await deadLetters.list(topic);
  return {
    status: 1 as const,
    items: letters.map((l) => ({
      id: l.id,
      topic: l.topic,
      partition: l.partition,
      offset: l.offset,
      group_id: l.groupId,
      key: l.key,
      error: l.error,
      value: Buffer.from(l.value, "base64").toString("utf8"),
      value_base64: l.value,
      dead_at: clock.format(l.deadAt),
      republished_at: l.republishedAt === null ? null : clock.format(l.republishedAt),
    })),
  };
}

export async function republish(deadLetters: DeadLetters, topic: DeadTopic = Topics.positionsDead, ids?: readonly string[]) {
  return { status: 1 as const, republished: await deadLetters.republish(topic, ids) };
}
