import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMailer } from "./create.js";
import { MailError } from "./error.js";
import type { MailLogger } from "./port.js";
import { smtpEndpoint } from "./smtp.js";

function capture(): MailLogger & { lines: { obj: object; msg: string | undefined }[] } {
  const lines: { obj: object; msg: string | undefined }[] = [];
  return { lines, info: (obj, msg) => lines.push({ obj, msg }), warn: (obj, msg) => lines.push({ obj, msg }) };
}

function configError(f: () => unknown): MailError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(MailError);
    expect((err as MailError).code).toBe("config");
    return err as MailError;
  }
  throw new Error("expected a config MailError");
}

describe("createMailer", () => {
  it("picks the outbox without SMTP_URL and says where mail goes", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "fleet-mail-"));
    try {
      const logger = capture();
      const mailer = createMailer({ from: "Fleet <no-reply@fleet.local>", dataDir, logger });
      expect(mailer.kind).toBe("outbox");
      expect(logger.lines).toEqual([{ obj: { mail: "outbox", dir: join(dataDir, "outbox") }, msg: "mail goes to the outbox (no SMTP_URL)" }]);
      await mailer.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("picks SMTP with SMTP_URL and logs its host and port only, never the credentials", async () => {
    const logger = capture();
    const mailer = createMailer({ smtpUrl: "smtp://mailer:hunter2@mail.example.com:2525", from: "no-reply@fleet.local", dataDir: "./data", logger });
    expect(mailer.kind).toBe("smtp");
    expect(logger.lines).toEqual([{ obj: { mail: "smtp", smtp: "mail.example.com:2525" }, msg: "mail goes out through SMTP" }]);
    expect(JSON.stringify(logger.lines)).not.toMatch(/hunter2|mailer:/);
    await mailer.close();
  });

  it("refuses a malformed SMTP_URL without repeating it (it may hold a password)", () => {
    for (const url of ["mail.example.com:587", "http://user:hunter2@mail.example.com", "smtp://user:hunter2@:587", "smtp://user:hunter2@mail example.com"]) {
      const err = configError(() => createMailer({ smtpUrl: url, from: "no-reply@fleet.local", dataDir: "./data", logger: capture() }));
      expect(err.message).toMatch(/^SMTP_URL /);
      expect(err.message).not.toContain("hunter2");
    }
  });

  it("refuses a malformed MAIL_FROM", () => {
    const err = configError(() => createMailer({ from: "Fleet", dataDir: "./data", logger: capture() }));
    expect(err.message).toBe('MAIL_FROM: "Fleet" is not a mail address (expected name@example.com or Name <name@example.com>)');
  });
});

describe("smtpEndpoint", () => {
  it("gives host and port, with nodemailer's default ports", () => {
    expect(smtpEndpoint("smtp://u:p@mail.example.com")).toEqual({ host: "mail.example.com", port: 587, secure: false, label: "mail.example.com:587" });
    expect(smtpEndpoint("smtps://u:p@mail.example.com")).toEqual({ host: "mail.example.com", port: 465, secure: true, label: "mail.example.com:465" });
    expect(smtpEndpoint("smtp://127.0.0.1:25").label).toBe("127.0.0.1:25");
  });
});
