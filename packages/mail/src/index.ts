export { createMailer, type MailerConfig } from "./create.js";
export { MailError, type MailErrorCode, type MailErrorDetails } from "./error.js";
export { MailAddressSchema, MailAttachmentSchema, MailMessageSchema, MAX_RECIPIENTS, type MailAttachment, type MailMessage } from "./message.js";
export { createOutboxMailer, outboxDir, type OutboxMailerOptions } from "./outbox.js";
export type { MailLogger, Mailer, MailReceipt } from "./port.js";
export { createSmtpMailer, DEFAULT_SMTP_TIMEOUTS, smtpEndpoint, type SmtpEndpoint, type SmtpMailerOptions, type SmtpTimeouts } from "./smtp.js";
