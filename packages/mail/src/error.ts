/**
 * What went wrong, for a caller deciding what to do next:
 * - `invalid_message`: the message itself (a malformed address, a missing subject); sending it again fails again;
 * - `config`: SMTP_URL or MAIL_FROM is malformed (thrown by createMailer);
 * - `rejected`: the server refused the recipients or the sender;
 * - `auth`: the server refused the login;
 * - `unreachable`: no connection, no greeting, or a server that stopped answering, within the timeouts;
 * - `failed`: anything else (the server refused the message's data, the outbox could not be written).
 */
export type MailErrorCode = "invalid_message" | "config" | "rejected" | "auth" | "unreachable" | "failed";

export interface MailErrorDetails {
  /** The server's reply code, when it answered (550, 535...). */
  responseCode?: number;
  /** True when the server refused for good (5xx): sending the same message again would get the same answer. */
  permanent?: boolean;
  /** The recipients the server refused. */
  rejected?: string[];
  cause?: unknown;
}

/** Every failure of the mail port. Its message never holds a body or SMTP credentials. */
export class MailError extends Error {
  readonly responseCode?: number;
  readonly permanent?: boolean;
  readonly rejected?: string[];

  constructor(
    readonly code: MailErrorCode,
    message: string,
    details: MailErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "MailError";
    if (details.responseCode !== undefined) this.responseCode = details.responseCode;
    if (details.permanent !== undefined) this.permanent = details.permanent;
    if (details.rejected !== undefined) this.rejected = details.rejected;
  }
}
