import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { waitFor } from "./fixtures.js";

export interface ReceivedMail {
  /** The envelope's recipients, as the server took them. */
  to: string[];
  subject: string;
  text: string;
  parsed: ParsedMail;
}

export interface SmtpTestServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The first mail to `address` (case-insensitive) after `skip` earlier ones to it. */
  mailTo(address: string, opts?: { skip?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a loopback port (npm's smtp-server), keeping every message it took,
 * parsed. `refuse` lists recipients it answers 550 for.
 */
export async function smtpTestServer(opts: { refuse?: readonly string[] } = {}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const refuse = new Set((opts.refuse ?? []).map((a) => a.toLowerCase()));
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) return callback(Object.assign(new Error("No such user here"), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        simpleParser(Buffer.concat(chunks))
          .then((parsed) => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), subject: parsed.subject ?? "", text: parsed.text ?? "", parsed });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => received.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async mailTo(address, o = {}) {
      const skip = o.skip ?? 0;
      await waitFor(`a mail to ${address}`, () => to(address).length > skip, o.timeoutMs ?? 10_000);
      return to(address)[skip]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
