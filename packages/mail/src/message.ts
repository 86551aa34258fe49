import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { SendMailOptions } from "nodemailer/lib/mailer";
import { MailError, type MailErrorCode } from "./error.js";

// A mail address as people write it: `name@example.com` or `Name <name@example.com>`.
// Deliberately simpler than RFC 5322 (no quoted local parts, comments or IP literals):
// it refuses what is plainly not an address (no @, spaces, two @, a trailing dot, a line
// break that would start a new header) and lets the server judge the rest. Non-ASCII
// letters pass, for internationalised domains and local parts.
const ATOM = String.raw`[^\s\x00-\x1f\x7f@<>()\[\]\\,;:".]+`;
const LABEL = String.raw`[A-Za-z0-9\u0080-\uFFFF](?:[A-Za-z0-9\u0080-\uFFFF-]*[A-Za-z0-9\u0080-\uFFFF])?`;
const ADDR = String.raw`${ATOM}(?:\.${ATOM})*@${LABEL}(?:\.${LABEL})*`;
const ADDRESS_PATTERN = String.raw`^(?:${ADDR}|[^\x00-\x1f\x7f<>]*<${ADDR}>)$`;
const ADDRESS = new RegExp(ADDRESS_PATTERN);

/**
 * RFC 5321 (4.5.3.1.8) has servers take at least 100 recipients per message and lets them
 * refuse more: one message to more people than that is split by the caller, not lost.
 */
export const MAX_RECIPIENTS = 100;

/** A line that may go in a header: no CR, LF or other control character. */
const HEADER_LINE = String.raw`^[^\x00-\x1f\x7f]*$`;

export const MailAddressSchema = Type.String({
  pattern: ADDRESS_PATTERN,
  maxLength: 320,
  description: "name@example.com or Name <name@example.com>",
});

export const MailAttachmentSchema = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255, pattern: HEADER_LINE }),
    // Checked as a Uint8Array (Buffer is one), typed as the Buffer callers pass.
    content: Type.Unsafe<Buffer>(Type.Uint8Array()),
    contentType: Type.Optional(Type.String({ pattern: String.raw`^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+(?:\s*;[^\x00-\x1f\x7f]*)?$` })),
  },
  { additionalProperties: false },
);

/** One mail: a password reminder, an alert notification, a scheduled report. */
export const MailMessageSchema = Type.Object(
  {
    to: Type.Union([MailAddressSchema, Type.Array(MailAddressSchema, { minItems: 1, maxItems: MAX_RECIPIENTS })]),
    subject: Type.String({ minLength: 1, maxLength: 998, pattern: HEADER_LINE }),
    text: Type.String(),
    html: Type.Optional(Type.String()),
    attachments: Type.Optional(Type.Array(MailAttachmentSchema)),
    /** The sender when not the mailer's own (MAIL_FROM). */
    from: Type.Optional(MailAddressSchema),
  },
  { additionalProperties: false },
);
export type MailMessage = Static<typeof MailMessageSchema>;
export type MailAttachment = Static<typeof MailAttachmentSchema>;

/** A value as an error message may show it: short, on one line. */
function shown(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** Throws a MailError unless `value` is one mail address. `field` names it in the message. */
export function checkAddress(field: string, value: unknown, code: MailErrorCode = "invalid_message"): string {
  if (typeof value !== "string" || value.length > 320 || !ADDRESS.test(value)) {
    throw new MailError(code, `${field}: ${shown(value)} is not a mail address (expected name@example.com or Name <name@example.com>)`);
  }
  return value;
}

/**
 * The message checked against MailMessageSchema, with its recipients as a list. Throws a
 * MailError naming the first problem: the malformed address itself for a recipient or
 * sender, only the field for anything else (a body is never quoted: it may hold a secret).
 */
export function checkMessage(message: MailMessage): MailMessage & { to: string[] } {
  if (typeof message !== "object" || message === null) throw new MailError("invalid_message", "a mail message must be an object");
  const to: unknown = message.to;
  const recipients = Array.isArray(to) ? (to as unknown[]) : [to];
  if (recipients.length === 0) throw new MailError("invalid_message", "to: a mail needs at least one recipient");
  if (recipients.length > MAX_RECIPIENTS) throw new MailError("invalid_message", `to: ${recipients.length} recipients, at most ${MAX_RECIPIENTS} per mail`);
  recipients.forEach((r, i) => checkAddress(Array.isArray(to) ? `to[${i}]` : "to", r));
  if (message.from !== undefined) checkAddress("from", message.from);
  const first = Value.Errors(MailMessageSchema, message).First();
  if (first) throw new MailError("invalid_message", `${first.path.slice(1) || "message"}: ${first.message}`);
  return { ...message, to: recipients as string[] };
}

/** The sender's bare address (`no-reply@fleet.local` for `Fleet <no-reply@fleet.local>`). */
export function bareAddress(address: string): string {
  const m = /<([^<>]*)>$/.exec(address);
  return m ? m[1]! : address;
}

/**
 * The message as nodemailer takes it. Attachments are bytes only: file and URL access
 * are switched off, so no field of a message can make nodemailer read a path or fetch a URL.
 */
export function toNodemailer(message: MailMessage & { to: string[] }, defaultFrom: string): SendMailOptions {
  return {
    from: message.from ?? defaultFrom,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined && { html: message.html }),
    ...(message.attachments && {
      attachments: message.attachments.map((a) => {
        const bytes: Uint8Array = a.content; // a plain Uint8Array passes the schema too
        return {
          filename: a.filename,
          content: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          ...(a.contentType !== undefined && { contentType: a.contentType }),
        };
      }),
    }),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
