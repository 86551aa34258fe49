import { once } from "node:events";
import net from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createMailer } from "./create.js";
import { MailError } from "./error.js";
import type { MailLogger, Mailer } from "./port.js";
import { createSmtpMailer } from "./smtp.js";

interface Received {
  mailFrom: string;
  rcptTo: string[];
  user: string | undefined;
  raw: Buffer;
}

interface LogLine {
  level: "info" | "warn";
  obj: object;
  msg: string | undefined;
}

function capture(): MailLogger & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  return {
    lines,
    info: (obj, msg) => lines.push({ level: "info", obj, msg }),
    warn: (obj, msg) => lines.push({ level: "warn", obj, msg }),
    text: () => JSON.stringify(lines),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A real SMTP server on a loopback port, keeping what it received. */
async function startServer(options: SMTPServerOptions = {}): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    // The plain-text tests speak SMTP without TLS; the smtps test turns `secure` on.
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
    ...options,
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as net.AddressInfo).port, received };
}

function track(mailer: Mailer): Mailer {
  cleanups.push(() => mailer.close());
  return mailer;
}

/** Rejects with what `p` rejected with, and how long it took; fails the test if it resolved. */
async function failure(p: Promise<unknown>): Promise<{ err: MailError; ms: number }> {
  const start = Date.now();
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(MailError);
    return { err: err as MailError, ms: Date.now() - start };
  }
  throw new Error("expected the send to reject");
}

describe("SMTP adapter against a real SMTP server", () => {
  it("delivers to the envelope recipients with the subject, body and attachment", async () => {
    const { port, received } = await startServer();
    const logger = capture();
    const mailer = track(createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: "Fleet <no-reply@fleet.local>", dataDir: "/nonexistent", logger }));
    expect(mailer.kind).toBe("smtp");

    const receipt = await mailer.send({
      to: ["ops@example.com", "Zoë Driver <zoe@example.org>"],
      subject: "Alerte : vitesse dépassée",
      text: "Vehicle 12 drove 131 km/h.",
      html: "<p>Vehicle 12 drove <b>131 km/h</b>.</p>",
      attachments: [{ filename: "trip.csv", content: Buffer.from("t,speed\n1,131\n"), contentType: "text/csv" }],
    });

    expect(receipt.accepted).toEqual(["ops@example.com", "zoe@example.org"]);
    expect(receipt.rejected).toEqual([]);
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.mailFrom).toBe("no-reply@fleet.local");
    expect(got.rcptTo).toEqual(["ops@example.com", "zoe@example.org"]);
    const parsed = await simpleParser(got.raw);
    expect(parsed.subject).toBe("Alerte : vitesse dépassée");
    expect(parsed.text?.trim()).toBe("Vehicle 12 drove 131 km/h.");
    expect(parsed.html).toContain("<b>131 km/h</b>");
    expect(parsed.messageId).toBe(receipt.messageId);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([["trip.csv", "text/csv", "t,speed\n1,131\n"]]);

    // One line saying where mail goes, one for the message: counts and subject, no addresses, no body.
    expect(logger.lines.map((l) => l.msg)).toEqual(["mail goes out through SMTP", "mail sent"]);
    expect(logger.lines[1]!.obj).toMatchObject({ recipients: 2, subject: "Alerte : vitesse dépassée", smtp: `127.0.0.1:${port}` });
    expect(logger.text()).not.toContain("131 km/h");
    expect(logger.text()).not.toContain("example.com");
  });

  it("logs in with the URL's user and password (percent-encoded) and never logs the password", async () => {
    const password = "s3cret:p@ss/word";
    const { port, received } = await startServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === "fleet" && auth.password === password) callback(null, { user: auth.username });
        else callback(new Error("Invalid username or password"));
      },
    });
    const logger = capture();
    const mailer = track(createMailer({ smtpUrl: `smtp://fleet:${encodeURIComponent(password)}@127.0.0.1:${port}`, from: "no-reply@fleet.local", dataDir: "/nonexistent", logger }));

    await mailer.send({ to: "ops@example.com", subject: "Password reminder", text: "Reset: https://fleet.example/reset?token=abc123" });

    expect(received).toHaveLength(1);
    expect(received[0]!.user).toBe("fleet");
    expect(received[0]!.rcptTo).toEqual(["ops@example.com"]);
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.subject).toBe("Password reminder");
    expect(parsed.text?.trim()).toBe("Reset: https://fleet.example/reset?token=abc123");
    expect(logger.text()).not.toContain("s3cret");
    expect(logger.text()).not.toContain(encodeURIComponent(password));
    expect(logger.text()).not.toContain("token=abc123");
  });

  it("rejects with an auth MailError when the server refuses the login, without the password in it", async () => {
    const { port, received } = await startServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth: (_auth, _session, callback) => callback(new Error("Invalid username or password")),
    });
    const mailer = track(createSmtpMailer({ url: `smtp://fleet:wrong-pass@127.0.0.1:${port}`, from: "no-reply@fleet.local", logger: capture() }));

    const { err } = await failure(mailer.send({ to: "ops@example.com", subject: "s", text: "t" }));

    expect(err.code).toBe("auth");
    expect(err.message).toContain(`the SMTP server at 127.0.0.1:${port} refused the login`);
    expect(err.message).toContain("535");
    expect(`${err.message} ${(err.cause as Error).message}`).not.toContain("wrong-pass");
    expect(received).toHaveLength(0);
  });

  it("rejects with a MailError saying so when the server refuses the recipient", async () => {
    const { port, received } = await startServer({
      onRcptTo(address, _session, callback) {
        if (address.address === "nobody@example.com") callback(Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 }));
        else callback();
      },
    });
    const mailer = track(createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: "no-reply@fleet.local", logger: capture() }));

    const { err } = await failure(mailer.send({ to: "nobody@example.com", subject: "s", text: "t" }));

    expect(err.code).toBe("rejected");
    expect(err.message).toBe(`the SMTP server at 127.0.0.1:${port} refused the recipient: 550 5.1.1 No such user here`);
    expect(err.responseCode).toBe(550);
    expect(err.permanent).toBe(true);
    expect(err.rejected).toEqual(["nobody@example.com"]);
    expect(received).toHaveLength(0);
  });

  it("delivers to the recipients the server takes and reports the refused ones in the receipt", async () => {
    const { port, received } = await startServer({
      onRcptTo: (address, _session, callback) => callback(address.address === "nobody@example.com" ? Object.assign(new Error("No such user"), { responseCode: 550 }) : undefined),
    });
    const logger = capture();
    const mailer = track(createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: "no-reply@fleet.local", logger }));

    const receipt = await mailer.send({ to: ["ops@example.com", "nobody@example.com"], subject: "s", text: "t" });

    expect(receipt.accepted).toEqual(["ops@example.com"]);
    expect(receipt.rejected).toEqual(["nobody@example.com"]);
    expect(received[0]!.rcptTo).toEqual(["ops@example.com"]);
    expect(logger.lines.find((l) => l.level === "warn")?.obj).toMatchObject({ rejected: 1, recipients: 2 });
  });

  it("sends over TLS from the start with smtps://, query options passed to nodemailer", async () => {
    // smtp-server's built-in certificate is self-signed, hence tls.rejectUnauthorized=false.
    const { port, received } = await startServer({ secure: true, disabledCommands: [], authOptional: false, onAuth: (auth, _s, cb) => cb(null, { user: auth.username }) });
    const mailer = track(createSmtpMailer({ url: `smtps://fleet:pw@127.0.0.1:${port}/?tls.rejectUnauthorized=false`, from: "no-reply@fleet.local", logger: capture() }));

    await mailer.send({ to: "ops@example.com", subject: "over TLS", text: "t" });

    expect(received).toHaveLength(1);
    expect((await simpleParser(received[0]!.raw)).subject).toBe("over TLS");
  });

  it("rejects a malformed recipient before connecting", async () => {
    const { port, received } = await startServer();
    const mailer = track(createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: "no-reply@fleet.local", logger: capture() }));

    const { err } = await failure(mailer.send({ to: ["ops@example.com", "not an address"], subject: "s", text: "t" }));

    expect(err.code).toBe("invalid_message");
    expect(err.message).toContain('to[1]: "not an address" is not a mail address');
    expect(received).toHaveLength(0);
  });
});

describe("SMTP adapter with a server that cannot be reached", () => {
  it("rejects at once when nothing listens on the port", async () => {
    const probe = net.createServer().listen(0, "127.0.0.1");
    await once(probe, "listening");
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const mailer = track(createSmtpMailer({ url: `smtp://user:pw@127.0.0.1:${port}`, from: "no-reply@fleet.local", logger: capture() }));

    const { err, ms } = await failure(mailer.send({ to: "ops@example.com", subject: "s", text: "t" }));

    expect(err.code).toBe("unreachable");
    expect(err.message).toContain(`the SMTP server at 127.0.0.1:${port} is unreachable`);
    expect(err.message).toContain("ECONNREFUSED");
    expect(ms).toBeLessThan(5_000);
  });

  it("gives up after the greeting timeout when the server accepts the connection but never greets", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => sockets.add(s)).listen(0, "127.0.0.1");
    await once(silent, "listening");
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const port = (silent.address() as net.AddressInfo).port;
    const mailer = track(createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: "no-reply@fleet.local", logger: capture(), timeouts: { greetingMs: 300 } }));

    const { err, ms } = await failure(mailer.send({ to: "ops@example.com", subject: "s", text: "t" }));

    expect(err.code).toBe("unreachable");
    expect(err.message).toBe(`the SMTP server at 127.0.0.1:${port} is unreachable: no greeting within 300 ms`);
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(3_000);
  });

  it("gives up after the socket timeout when the server stops answering mid-message", async () => {
    const { port, received } = await startServer({
      // Reads the message and never answers it.
      onData: (stream) => stream.resume(),
    });
    const mailer = track(createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: "no-reply@fleet.local", logger: capture(), timeouts: { socketMs: 500 } }));

    const { err, ms } = await failure(mailer.send({ to: "ops@example.com", subject: "s", text: "t" }));

    expect(err.code).toBe("unreachable");
    expect(err.message).toBe(`the SMTP server at 127.0.0.1:${port} is unreachable: no answer within 500 ms`);
    expect(ms).toBeLessThan(5_000);
    expect(received).toHaveLength(0);
  });
});
