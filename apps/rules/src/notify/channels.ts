import type { QueuedCommand } from "@fleet/contracts";
import { recordGprsCommand, type Db, type NotificationChannel, type NotificationRow, type User } from "@fleet/db";
import { MailError, type Mailer } from "@fleet/mail";
import { PrivateAddressError, outboundRequest, sendAllSms, smsGatewayOf } from "@fleet/outbound";

/** An attempt that must not be repeated (a webhook's 4xx, a private address, a malformed payload). */
export class PermanentDeliveryError extends Error {
  override readonly name = "PermanentDeliveryError";
}

/** Delivers one queued notification; rejects when it did not (PermanentDeliveryError: never retry). */
export type Channel = (row: NotificationRow) => Promise<void>;

export interface ChannelOptions {
  mailer?: Pick<Mailer, "send">;
  /** The alert owner, for their SMS gateway settings (read when sending: its credentials stay out of the outbox). */
  userOf(userId: number): Promise<User | undefined>;
  /** Where alert commands are recorded (sent_commands), as send_gprs_command records them. */
  db: Db;
  /** Puts a command on the commands topic for the device's gateway. */
  enqueueCommand(command: QueuedCommand): Promise<void>;
  allowPrivate: boolean;
  timeoutMs?: number;
  /**
   * The address of a point through the geocoder port; "" when it knows none. Looked up when
   * a webhook or mail goes out, not when the event is found: detection never waits on it.
   */
  addressAt?(lat: number, lng: number): Promise<string>;
}

/** The address for a payload's point, or "" (no geocoder, no point, or none known there). */
async function addressFor(opts: ChannelOptions, lat: unknown, lng: unknown): Promise<string> {
  if (!opts.addressAt || typeof lat !== "number" || typeof lng !== "number") return "";
  return opts.addressAt(lat, lng);
}

/** Where a webhook went, for log lines: scheme, host and port; its path and query may carry a token. */
export function webhookHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(not a URL)";
  }
}

function webhook(opts: ChannelOptions): Channel {
  return async (row) => {
    const { url, body } = row.payload as { url?: unknown; body?: Record<string, unknown> };
    let target: URL;
    try {
      target = new URL(String(url));
    } catch {
      throw new PermanentDeliveryError("the webhook is not a URL");
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new PermanentDeliveryError("the webhook is not an http(s) URL");
    const event = { ...(body?.event as object), id: row.eventId };
    const position = body?.position as { latitude?: unknown; longitude?: unknown; address?: unknown } | undefined;
    const address = position?.address === "" ? await addressFor(opts, position.latitude, position.longitude) : "";
    const sent = { ...body, event, ...(address !== "" ? { position: { ...position, address } } : {}) };
    let status: number;
    try {
      status = await outboundRequest(
        { url: target, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sent) },
        { timeoutMs: opts.timeoutMs ?? 10_000, allowPrivate: opts.allowPrivate },
      );
    } catch (err) {
      if (err instanceof PrivateAddressError) throw new PermanentDeliveryError("the webhook points at a private or reserved address, which this server does not call");
      throw err;
    }
    if (status >= 200 && status < 300) return;
    // A 4xx says the request itself is wrong, and sending it again changes nothing; 429 asks to come back later.
    if (status >= 400 && status < 500 && status !== 429) throw new PermanentDeliveryError(`the webhook answered ${status}`);
    throw new Error(`the webhook answered ${status}`);
  };
}

function email(opts: ChannelOptions): Channel {
  return async (row) => {
    if (!opts.mailer) throw new PermanentDeliveryError("no mailer");
    const { to, subject, text, place } = row.payload as { to: string[]; subject: string; text: string; place?: { lat: number; lng: number; label: string } };
    const address = place ? await addressFor(opts, place.lat, place.lng) : "";
    try {
      await opts.mailer.send({ to, subject, text: address !== "" ? `${text}${place!.label}: ${address}\n` : text });
    } catch (err) {
      // A malformed message, or a server that refused it for good (5xx), fails the same way again.
      if (err instanceof MailError && (err.code === "invalid_message" || err.permanent === true)) throw new PermanentDeliveryError(err.message);
      throw err;
    }
  };
}

/**
 * Through the owner's own SMS gateway, as send_sms_command sends. A gateway that took some
 * numbers and refused others is not asked again: sending again would repeat the messages
 * that went out, which the owner pays for; only a gateway that took none is tried again.
 */
function sms(opts: ChannelOptions): Channel {
  return async (row) => {
    const user = await opts.userOf(row.userId);
    const gateway = user ? smsGatewayOf(user) : { problem: "The alert's owner is gone." };
    if ("problem" in gateway) throw new PermanentDeliveryError(gateway.problem);
    const { to, message } = row.payload as { to: string[]; message: string };
    const results = await sendAllSms(gateway.config, to.map((n) => ({ to: n, message })), { timeoutMs: opts.timeoutMs ?? 10_000, allowPrivate: opts.allowPrivate });
    const failed = results.flatMap((r) => (r.ok ? [] : [r.error]));
    if (failed.length === 0) return;
    if (failed.length < results.length) throw new PermanentDeliveryError(`${failed.length} of ${results.length} numbers not sent: ${failed[0]}`);
    throw new Error(failed[0]);
  };
}

/**
 * The alert's GPRS command for the device (engineStop, say), recorded in the owner's sent
 * commands and queued on the commands topic in one step, as send_gprs_command does. The
 * notification's id is the command's request key, so an attempt repeated after a crash
 * finds the first one's command and queues nothing again.
 */
function command(opts: ChannelOptions): Channel {
  return async (row) => {
    const { deviceId, imei, protocol, type } = row.payload as { deviceId: number; imei: string; protocol: string | null; type: QueuedCommand["type"] };
    await recordGprsCommand(opts.db, row.userId, { deviceId, type, attributes: {}, requestKey: `alert-notification:${row.id}` }, (c) =>
      opts.enqueueCommand({ id: c.id, userId: row.userId, deviceId, imei, protocol, type, attributes: {}, queuedAt: c.createdAt.getTime() }),
    );
  };
}

/** The channels the dispatcher delivers. */
export function channels(opts: ChannelOptions): Partial<Record<NotificationChannel, Channel>> {
  return { webhook: webhook(opts), email: email(opts), sms: sms(opts), command: command(opts) };
}
