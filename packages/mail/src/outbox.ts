import { randomBytes } from "node:crypto";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import MailComposer from "nodemailer/lib/mail-composer";
import { MailError } from "./error.js";
import { inFlight } from "./in-flight.js";
import { checkMessage, toNodemailer, type MailMessage } from "./message.js";
import { pruneOutbox } from "./outbox-prune.js";
import type { MailLogger, Mailer, MailReceipt } from "./port.js";

/** Where the outbox adapter writes: `<dataDir>/outbox`. */
export function outboxDir(dataDir: string): string {
  return join(dataDir, "outbox");
}

export interface OutboxMailerOptions {
  dataDir: string;
  /** The sender of messages that name none (MAIL_FROM). */
  from: string;
  logger: MailLogger;
  /** Days a message is kept; older ones go when a message is written, at most hourly. Default 30. */
  keepDays?: number;
}

/** How often writing a message also deletes the outbox's old ones. */
const PRUNE_EVERY_MS = 3_600_000;

let lastMs = -1;
let sameMs = 0;

/**
 * `2026-11-25T18-05-12-345Z-0000-1a2b3c4d.eml`: the UTC time first, so names sort by time
 * as text; a counter within the millisecond, so this process's messages keep their order;
 * random bytes, so two processes writing in the same millisecond do not collide. No ':'
 * (Windows refuses it in a file name).
 */
export function outboxFileName(now = Date.now()): string {
  sameMs = now === lastMs ? sameMs + 1 : 0;
  lastMs = now;
  const stamp = new Date(now).toISOString().replace(/[:.]/g, "-");
  return `${stamp}-${String(sameMs).padStart(4, "0")}-${randomBytes(4).toString("hex")}.eml`;
}

/**
 * The embedded mailer (no SMTP_URL): each message becomes an RFC 822 `.eml` file under
 * `<dataDir>/outbox/`, the exact bytes an SMTP server would have received (nodemailer's
 * MailComposer builds them), so it opens in any mail client. Files are written to a
 * dot-named temporary file and renamed, so a reader never sees half a message, and are
 * readable by their owner only: a password reminder's link is a secret. Messages older than
 * `keepDays` are deleted as new ones are written (outbox-prune.ts).
 */
export function createOutboxMailer(options: OutboxMailerOptions): Mailer {
  const dir = outboxDir(options.dataDir);
  const sends = inFlight();
  const keepDays = options.keepDays ?? 30;
  let prunedAt = -Infinity;

  async function write(message: MailMessage): Promise<MailReceipt> {
    const checked = checkMessage(message);
    const node = new MailComposer(toNodemailer(checked, options.from)).compile();
    const bytes = await node.build();
    const name = outboxFileName();
    const path = join(dir, name);
    const tmp = join(dir, `.${name}.tmp`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = await open(tmp, "wx", 0o600);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(tmp, path);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw new MailError("failed", `could not write the message to the outbox ${dir}: ${(err as Error).message}`, { cause: err });
    }
    options.logger.info({ recipients: checked.to.length, subject: checked.subject, path }, "mail written to the outbox");
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      // Tracked like a send, so close waits for it; it never fails the message just written.
      void sends.run(() => pruneOutbox(dir, keepDays, options.logger)).catch(() => {});
    }
    return { messageId: node.messageId(), accepted: node.getEnvelope().to, rejected: [], path };
  }

  return {
    kind: "outbox",
    send: (message) => sends.run(() => write(message)),
    close: () => sends.close(),
  };
}
