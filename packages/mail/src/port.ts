import type { MailMessage } from "./message.js";

/** What a mailer tells of a message it took. */
export interface MailReceipt {
  /** The Message-ID header's value, `<...@domain>`. */
  messageId: string;
  /** The recipients the server (or the outbox) took. */
  accepted: string[];
  /** The recipients an SMTP server refused while it took the others (send rejects when it refuses them all). */
  rejected: string[];
  /** The outbox adapter's file. */
  path?: string;
}

/**
 * The mail port: password reminders, alert notifications and scheduled reports go out
 * through it. SMTP when SMTP_URL is set, else the outbox, one `.eml` file per message
 * under `<DATA_DIR>/outbox/`.
 *
 * `send` validates the message (MailMessageSchema) and rejects with a MailError when it
 * is malformed or cannot be delivered.
 */
export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<MailReceipt>;
  close(): Promise<void>;
}

/**
 * The slice of a pino logger the mailer needs. The mailer logs recipient counts, subjects
 * and where a message went; never a body (a reset link is a secret), an address list or
 * SMTP credentials.
 */
export interface MailLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}
