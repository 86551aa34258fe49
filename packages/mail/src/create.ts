import { MailError } from "./error.js";
import { checkAddress } from "./message.js";
import { createOutboxMailer, outboxDir } from "./outbox.js";
import type { MailLogger, Mailer } from "./port.js";
import { createSmtpMailer, smtpEndpoint, type SmtpTimeouts } from "./smtp.js";

export interface MailerConfig {
  /** SMTP_URL: send through this server. Unset: write `.eml` files to `<dataDir>/outbox/`. */
  smtpUrl?: string;
  /** MAIL_FROM: the sender of messages that name none, `Fleet <no-reply@fleet.local>`. */
  from: string;
  /** DATA_DIR */
  dataDir: string;
  logger: MailLogger;
  smtpTimeouts?: Partial<SmtpTimeouts>;
}

/**
 * SMTP when `smtpUrl` is set, else the outbox. Throws a `config` MailError for a
 * malformed SMTP URL or sender, so a process refuses to start rather than fail at its
 * first mail. Logs once where mail goes: the SMTP server's host and port, never its
 * user or password.
 */
export function createMailer(config: MailerConfig): Mailer {
  checkAddress("MAIL_FROM", config.from, "config");
  if (config.smtpUrl) {
    const { label } = smtpEndpoint(config.smtpUrl);
    const mailer = createSmtpMailer({ url: config.smtpUrl, from: config.from, logger: config.logger, ...(config.smtpTimeouts && { timeouts: config.smtpTimeouts }) });
    config.logger.info({ mail: "smtp", smtp: label }, "mail goes out through SMTP");
    return mailer;
  }
  if (!config.dataDir) throw new MailError("config", "the outbox needs a data directory (DATA_DIR)");
  config.logger.info({ mail: "outbox", dir: outboxDir(config.dataDir) }, "mail goes to the outbox (no SMTP_URL)");
  return createOutboxMailer({ dataDir: config.dataDir, from: config.from, logger: config.logger });
}
