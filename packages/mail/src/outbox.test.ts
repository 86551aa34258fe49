import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMailer } from "./create.js";
import { MailError } from "./error.js";
import { createOutboxMailer, outboxDir, outboxFileName } from "./outbox.js";
import { writtenAt } from "./outbox-prune.js";
import type { MailLogger } from "./port.js";

const NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-\d{4}-[0-9a-f]{8}\.eml$/;

function capture(): MailLogger & { lines: { obj: object; msg: string | undefined }[]; text(): string } {
  const lines: { obj: object; msg: string | undefined }[] = [];
  return {
    lines,
    info: (obj, msg) => lines.push({ obj, msg }),
    warn: (obj, msg) => lines.push({ obj, msg }),
    text: () => JSON.stringify(lines),
  };
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "fleet-mail-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("outbox adapter", () => {
  it("writes one RFC 822 .eml file a mail parser reads back: To, Subject, body, attachment", async () => {
    const logger = capture();
    const mailer = createMailer({ from: "Fleet <no-reply@fleet.local>", dataDir, logger });
    expect(mailer.kind).toBe("outbox");

    const receipt = await mailer.send({
      to: ["ops@example.com", "Zoë Driver <zoe@example.org>"],
      subject: "Réinitialisation du mot de passe",
      text: "Open https://fleet.example/reset?token=s3cr3t-token within an hour.\nÀ bientôt.",
      html: '<p><a href="https://fleet.example/reset?token=s3cr3t-token">Reset</a></p>',
      attachments: [{ filename: "report.csv", content: Buffer.from("day,km\nmon,42\n"), contentType: "text/csv" }],
    });

    const files = await readdir(outboxDir(dataDir));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(NAME);
    expect(receipt.path).toBe(join(dataDir, "outbox", files[0]!));
    expect(receipt.accepted).toEqual(["ops@example.com", "zoe@example.org"]);

    const raw = await readFile(receipt.path!);
    // Header lines end in CRLF, as on the wire.
    expect(raw.toString("latin1")).toMatch(/^From: Fleet <no-reply@fleet\.local>\r\nTo: ops@example\.com, =\?UTF-8\?Q\?Zo=C3=AB_Driver\?= <zoe@example\.org>\r\n/);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ name: "Fleet", address: "no-reply@fleet.local" }]);
    const to = Array.isArray(parsed.to) ? parsed.to : [parsed.to!];
    expect(to.flatMap((a) => a.value.map((v) => [v.name, v.address]))).toEqual([
      ["", "ops@example.com"],
      ["Zoë Driver", "zoe@example.org"],
    ]);
    expect(parsed.subject).toBe("Réinitialisation du mot de passe");
    expect(parsed.text?.trim()).toBe("Open https://fleet.example/reset?token=s3cr3t-token within an hour.\nÀ bientôt.");
    expect(parsed.html).toContain('href="https://fleet.example/reset?token=s3cr3t-token"');
    expect(parsed.messageId).toBe(receipt.messageId);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([["report.csv", "text/csv", "day,km\nmon,42\n"]]);
  });

  it("logs one line per message with the recipient count, subject and path, never the body", async () => {
    const logger = capture();
    const mailer = createOutboxMailer({ from: "no-reply@fleet.local", dataDir, logger });

    const receipt = await mailer.send({ to: ["a@example.com", "b@example.com"], subject: "Password reminder", text: "token=s3cr3t-token", html: "<b>token=s3cr3t-token</b>" });

    expect(logger.lines).toEqual([{ obj: { recipients: 2, subject: "Password reminder", path: receipt.path }, msg: "mail written to the outbox" }]);
    expect(logger.text()).not.toContain("s3cr3t");
  });

  it("names files so that sorting them by name is sorting them by time, each name unique", async () => {
    const mailer = createOutboxMailer({ from: "no-reply@fleet.local", dataDir, logger: capture() });
    const paths: string[] = [];
    for (let i = 0; i < 20; i++) paths.push((await mailer.send({ to: "a@example.com", subject: `n${i}`, text: "x" })).path!);

    const files = await readdir(outboxDir(dataDir));
    expect(files).toHaveLength(20);
    expect([...files].sort()).toEqual(paths.map((p) => p.slice(outboxDir(dataDir).length + 1)));
    // Within one millisecond the counter keeps the order; across milliseconds the time does.
    const t = Date.UTC(2026, 10, 25, 18, 5, 12, 345);
    const names = [outboxFileName(t), outboxFileName(t), outboxFileName(t + 1), outboxFileName(t + 1000)];
    expect(names[0]).toMatch(/^2026-11-25T18-05-12-345Z-0000-[0-9a-f]{8}\.eml$/);
    expect(names[1]).toMatch(/^2026-11-25T18-05-12-345Z-0001-/);
    expect([...names].sort()).toEqual(names);
  });

  it("leaves no temporary file behind and keeps the files to their owner (a reset link is a secret)", async () => {
    const mailer = createOutboxMailer({ from: "no-reply@fleet.local", dataDir, logger: capture() });
    const { path } = await mailer.send({ to: "a@example.com", subject: "s", text: "t" });

    expect(await readdir(outboxDir(dataDir))).toEqual([path!.slice(outboxDir(dataDir).length + 1)]);
    if (process.platform !== "win32") expect((await stat(path!)).mode & 0o777).toBe(0o600);
  });

  it("rejects a malformed recipient with a MailError naming it, and writes nothing", async () => {
    const mailer = createOutboxMailer({ from: "no-reply@fleet.local", dataDir, logger: capture() });

    await expect(mailer.send({ to: "bob@", subject: "s", text: "t" })).rejects.toThrow(new MailError("invalid_message", 'to: "bob@" is not a mail address (expected name@example.com or Name <name@example.com>)'));
    await expect(mailer.send({ to: "a@example.com", subject: "s", text: "t" })).resolves.toBeDefined();
    expect(await readdir(outboxDir(dataDir))).toHaveLength(1);
  });

  it("rejects with a MailError when the outbox cannot be written", async () => {
    await writeFile(join(dataDir, "outbox"), "a file where the directory should be");
    const mailer = createOutboxMailer({ from: "no-reply@fleet.local", dataDir, logger: capture() });

    const err = await mailer.send({ to: "a@example.com", subject: "s", text: "t" }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(MailError);
    expect((err as MailError).code).toBe("failed");
    expect((err as MailError).message).toContain(`could not write the message to the outbox ${outboxDir(dataDir)}`);
  });

  it("lets a send under way finish on close and refuses sends after it", async () => {
    const mailer = createOutboxMailer({ from: "no-reply@fleet.local", dataDir, logger: capture() });
    const sending = mailer.send({ to: "a@example.com", subject: "s", text: "t" });

    await mailer.close();

    expect((await sending).path).toBeDefined();
    await expect(mailer.send({ to: "a@example.com", subject: "s", text: "t" })).rejects.toThrow("the mailer is closed");
  });
});

describe("outbox retention", () => {
  const DAY = 86_400_000;
  /** Fills the outbox as earlier runs would have left it; the names of the files written. */
  async function leftBehind() {
    const dir = outboxDir(dataDir);
    await mkdir(dir, { recursive: true });
    const old = outboxFileName(Date.now() - 40 * DAY);
    const recent = outboxFileName(Date.now() - 10 * DAY);
    const crashed = `.${outboxFileName(Date.now() - 2 * DAY)}.tmp`;
    const writing = `.${outboxFileName(Date.now() - 60_000)}.tmp`;
    for (const name of [old, recent, crashed, writing, "notes.txt"]) await writeFile(join(dir, name), "x");
    return { dir, old, recent, crashed, writing };
  }
  const settled = async (mailer: { close(): Promise<void> }) => mailer.close();

  it("deletes messages older than 30 days and a crash's temporary files when it writes one, and nothing else", async () => {
    const f = await leftBehind();
    const logger = capture();
    const mailer = createOutboxMailer({ dataDir, from: "no-reply@fleet.local", logger });
    const receipt = await mailer.send({ to: ["ops@example.com"], subject: "Daily report", text: "attached" });
    await settled(mailer);
    const left = await readdir(f.dir);
    expect(left.sort()).toEqual([f.writing, f.recent, basename(receipt.path!), "notes.txt"].sort());
    expect(logger.lines.map((l) => l.msg)).toContain("old outbox messages deleted");
  });

  it("keeps messages for keepDays", async () => {
    const f = await leftBehind();
    const mailer = createOutboxMailer({ dataDir, from: "no-reply@fleet.local", logger: capture(), keepDays: 5 });
    await mailer.send({ to: ["ops@example.com"], subject: "Daily report", text: "attached" });
    await settled(mailer);
    expect(await readdir(f.dir)).not.toContain(f.recent);
  });

  it("reads a message's time from its name", () => {
    const at = Date.UTC(2026, 10, 25, 18, 5, 12, 345);
    expect(writtenAt(outboxFileName(at))).toBe(at);
    expect(writtenAt(`.${outboxFileName(at)}.tmp`)).toBe(at);
    expect(writtenAt("notes.txt")).toBeUndefined();
  });
});
