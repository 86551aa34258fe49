import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db, Queryable } from "../client.js";
import { RefusedError } from "../errors.js";
import { sentCommands, type SentCommand } from "../schema/commands.js";
import { devices } from "../schema/devices.js";
import { userDevices } from "../schema/user-devices.js";
import { isRowId } from "../row-id.js";

/** What the command endpoints need of a device. */
export interface CommandDevice {
  id: number;
  name: string;
  imei: string;
  simNumber: string;
}

/** The user's non-deleted devices by id; `where` narrows them. */
function commandDevices(db: Queryable, userId: number, where?: SQL): Promise<CommandDevice[]> {
  return db
    .select({ id: devices.id, name: devices.name, imei: devices.imei, simNumber: devices.simNumber })
    .from(userDevices)
    .innerJoin(devices, eq(devices.id, userDevices.deviceId))
    .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false), where))
    .orderBy(asc(devices.id));
}

/** The user's non-deleted devices by id: every one can be sent a GPRS command. */
export const listCommandDevices = (db: Queryable, userId: number): Promise<CommandDevice[]> => commandDevices(db, userId);

/** Those of `ids` that are the user's non-deleted devices; missing, deleted and other users' ids are left out alike. */
export async function findCommandDevices(db: Queryable, userId: number, ids: readonly number[]): Promise<Map<number, CommandDevice>> {
  const valid = ids.filter(isRowId);
  if (valid.length === 0) return new Map();
  const rows = await commandDevices(db, userId, inArray(devices.id, valid));
  return new Map(rows.map((r) => [r.id, r]));
}

export interface GprsCommandInput {
  deviceId: number;
  type: string;
  /** The validated attribute values; stored as the row's payload. */
  attributes: Record<string, string | number>;
  /** The client's idempotency key, if it sent one. */
  requestKey?: string;
}

/** JSON with object keys sorted, so payloads compare equal whatever order jsonb returns keys in. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

/**
 * Records a GPRS command as `queued` and hands it to `enqueue` inside the same
 * transaction: a command is recorded if and only if the queue took it (when enqueue
 * throws, nothing is written and the error propagates). With a request key, a repeat
 * for the same device returns the first request's row and enqueues nothing; a
 * concurrent repeat waits on the unique index until the first commits.
 * @throws RefusedError `{requestKey: taken}` when the key was used for this device with another command.
 */
export async function recordGprsCommand(
  db: Db,
  userId: number,
  input: GprsCommandInput,
  enqueue: (command: SentCommand) => Promise<void>,
): Promise<{ command: SentCommand; created: boolean }> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(sentCommands)
      .values({ userId, deviceId: input.deviceId, channel: "gprs", type: input.type, payload: input.attributes, status: "queued", requestKey: input.requestKey ?? null })
      .onConflictDoNothing()
      .returning();
    if (inserted) {
      await enqueue(inserted);
      return { command: inserted, created: true };
    }
    // Only a request key can conflict (the id is fresh), so the key is set here.
    const [first] = await tx
      .select()
      .from(sentCommands)
      .where(and(eq(sentCommands.userId, userId), eq(sentCommands.channel, "gprs"), eq(sentCommands.deviceId, input.deviceId), eq(sentCommands.requestKey, input.requestKey!)));
    if (!first || first.type !== input.type || canonical(first.payload) !== canonical(input.attributes)) throw new RefusedError({ requestKey: { kind: "taken" } });
    return { command: first, created: false };
  });
}

export interface SmsAttempt {
  deviceId: number;
  phone: string;
  message: string;
  status: "sent" | "failed";
  error?: string;
}

/** Records the outcome of each SMS sent, in one statement. */
export async function recordSmsAttempts(db: Queryable, userId: number, attempts: readonly SmsAttempt[]): Promise<SentCommand[]> {
  if (attempts.length === 0) return [];
  return db
    .insert(sentCommands)
    .values(
      attempts.map((a) => ({
        userId,
        deviceId: a.deviceId,
        channel: "sms" as const,
        type: "sms",
        payload: { phone: a.phone, message: a.message },
        status: a.status,
        error: a.error ?? null,
      })),
    )
    .returning();
}

/** The user's sent commands, oldest first (for tests and a future history endpoint). */
export function listUserSentCommands(db: Queryable, userId: number): Promise<SentCommand[]> {
  return db.select().from(sentCommands).where(eq(sentCommands.userId, userId)).orderBy(asc(sentCommands.id));
}
