import nodemailer from "nodemailer";
import type { NodemailerError } from "nodemailer/lib/errors";
import { MailError } from "./error.js";
import { inFlight } from "./in-flight.js";
import { bareAddress, checkMessage, toNodemailer, type MailMessage } from "./message.js";
import type { MailLogger, Mailer, MailReceipt } from "./port.js";

/** How long a send waits at each step before it gives up with an `unreachable` MailError. */
export interface SmtpTimeouts {
  /** For the TCP (or TLS) connection. nodemailer's default is 2 minutes. */
  connectionMs: number;
  /** For the server's greeting once connected. nodemailer's default is 30 s. */
  greetingMs: number;
  /** For any answer once talking (a server that stopped mid-message). nodemailer's default is 10 minutes. */
  socketMs: number;
}

/** Short enough that a request sending a password reminder gets an answer while its user waits. */
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://user:pass@host:465` (TLS from the start). */
  url: string;
  /** The sender of messages that name none (MAIL_FROM). */
  from: string;
  logger: MailLogger;
  timeouts?: Partial<SmtpTimeouts>;
}

/** An SMTP URL's server as it may be shown and logged: `host:port`, never its user or password. */
export interface SmtpEndpoint {
  host: string;
  port: number;
  secure: boolean;
  /** `host:port` */
  label: string;
}

/**
 * Where an SMTP URL points. Throws a `config` MailError for anything but smtp:// or
 * smtps:// with a host; the message never repeats the URL (it may hold a password).
 */
export function smtpEndpoint(url: string): SmtpEndpoint {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Not the TypeError as cause: it carries the input, password included.
    throw new MailError("config", "SMTP_URL is not a URL (expected smtp://user:pass@host:587 or smtps://user:pass@host:465)");
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:") {
    throw new MailError("config", `SMTP_URL must start with smtp:// or smtps://, not ${u.protocol}//`);
  }
  if (!u.hostname) throw new MailError("config", "SMTP_URL has no host (expected smtp://user:pass@host:587)");
  const secure = u.protocol === "smtps:";
  // nodemailer's defaults: 465 for TLS from the start, else 587 (submission).
  const port = u.port ? Number(u.port) : secure ? 465 : 587;
  return { host: u.hostname, port, secure, label: `${u.hostname}:${port}` };
}

/** A nodemailer failure as a MailError that says what happened, in terms of the server at `label`. */
function toMailError(err: unknown, endpoint: SmtpEndpoint, recipients: number, timeouts: SmtpTimeouts, from: string): MailError {
  if (!(err instanceof Error)) return new MailError("failed", `sending through the SMTP server at ${endpoint.label} failed: ${String(err)}`);
  const e = err as NodemailerError;
  const at = `the SMTP server at ${endpoint.label}`;
  const details = { cause: err, ...(e.responseCode !== undefined && { responseCode: e.responseCode }), ...(e.permanent !== undefined && { permanent: e.permanent }) };
  switch (e.code) {
    case "EENVELOPE": {
      if (e.rejected && e.rejected.length > 0) {
        const reply = e.rejectedErrors?.[0]?.response ?? e.response ?? "no reply";
        const first = e.rejectedErrors?.[0];
        const what = recipients === 1 ? "the recipient" : `all ${recipients} recipients`;
        return new MailError("rejected", `${at} refused ${what}: ${reply}`, {
          ...details,
          ...(first?.responseCode !== undefined && { responseCode: first.responseCode }),
          ...(first?.permanent !== undefined && { permanent: first.permanent }),
          rejected: e.rejected,
        });
      }
      if (e.command === "MAIL FROM") return new MailError("rejected", `${at} refused the sender ${bareAddress(from)}: ${e.response ?? e.message}`, details);
      return new MailError("rejected", `${at} refused the message's envelope: ${e.message}`, details);
    }
    case "EAUTH":
    case "ENOAUTH":
      return new MailError("auth", `${at} refused the login: ${e.response ?? e.message}`, details);
    case "ETIMEDOUT": {
      const step =
        e.timeoutType === "CONNECT_TIMEOUT"
          ? `no connection within ${timeouts.connectionMs} ms`
          : e.timeoutType === "GREETING_TIMEOUT"
            ? `no greeting within ${timeouts.greetingMs} ms`
            : e.timeoutType === "SOCKET_TIMEOUT"
              ? `no answer within ${timeouts.socketMs} ms`
              : e.message;
      return new MailError("unreachable", `${at} is unreachable: ${step}`, details);
    }
    case "ESOCKET":
    case "ECONNECTION":
    case "EDNS":
    case "ETLS":
      return new MailError("unreachable", `${at} is unreachable: ${e.message}`, details);
    default:
      return new MailError("failed", `${at} did not take the message: ${e.message}`, details);
  }
}

/**
 * Sends through an SMTP server with nodemailer, one connection per message: the
 * platform's mail (reminders, alerts, reports) is rare enough that a pool's idle
 * connections would cost more than they save. nodemailer's own logger stays off: its
 * debug output carries the AUTH exchange and every body.
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const endpoint = smtpEndpoint(options.url);
  const timeouts = { ...DEFAULT_SMTP_TIMEOUTS, ...options.timeouts };
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    logger: false,
    debug: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const sends = inFlight();

  async function send(message: MailMessage): Promise<MailReceipt> {
    const checked = checkMessage(message);
    const from = checked.from ?? options.from;
    let info;
    try {
      info = await transport.sendMail(toNodemailer(checked, options.from));
    } catch (err) {
      throw toMailError(err, endpoint, checked.to.length, timeouts, from);
    }
    const accepted = info.accepted.map(String);
    const rejected = info.rejected.map(String);
    options.logger.info({ recipients: accepted.length, subject: checked.subject, smtp: endpoint.label, messageId: info.messageId }, "mail sent");
    if (rejected.length > 0) {
      options.logger.warn({ rejected: rejected.length, recipients: checked.to.length, subject: checked.subject, smtp: endpoint.label }, "the SMTP server refused some recipients of a mail");
    }
    return { messageId: info.messageId, accepted, rejected };
  }

  return {
    kind: "smtp",
    send: (message) => sends.run(() => send(message)),
    async close() {
      await sends.close();
      transport.close();
    },
  };
}
