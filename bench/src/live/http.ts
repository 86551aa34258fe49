import http from "node:http";
import { performance } from "node:perf_hooks";

/** One answer: its status, how long from sending to its last byte, its size, and its body when asked for. */
export interface Reply {
  status: number;
  ms: number;
  bytes: number;
  body?: Buffer;
}

/**
 * A keep-alive HTTP client for one server. Every request reads its body to the end (the
 * time is until the last byte) and keeps it only when asked: the measured path never
 * parses a 15 MB list.
 */
export class Client {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, opts: { maxSockets?: number; timeoutMs?: number } = {}) {
    const u = new URL(baseUrl);
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.host = u.hostname;
    this.port = Number(u.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? Infinity });
  }

  get(path: string, keepBody = false): Promise<Reply> {
    return this.request("GET", path, keepBody);
  }

  /** A JSON POST whose answer is kept (small: ingest's `{status, accepted, rejected}`). */
  postJson(path: string, body: string): Promise<Reply> {
    return this.request("POST", path, true, body);
  }

  private request(method: string, path: string, keepBody: boolean, body?: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const headers: http.OutgoingHttpHeaders = body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
      const req = http.request({ host: this.host, port: this.port, method, path, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on("data", (c: Buffer) => {
          bytes += c.length;
          if (keepBody) chunks.push(c);
        });
        res.on("end", () => {
          const ms = performance.now() - t0;
          resolve({ status: res.statusCode ?? 0, ms, bytes, body: keepBody ? Buffer.concat(chunks) : undefined });
        });
        res.on("error", reject);
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`${method} ${path.split("?")[0]} timed out after ${this.timeoutMs} ms`)));
      req.on("error", reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The body as JSON, or an error naming the request and the start of what came back. */
export function jsonOf<T>(reply: Reply, what: string): T {
  const text = reply.body?.toString("utf8") ?? "";
  if (reply.status !== 200) throw new Error(`${what}: HTTP ${reply.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${what}: not JSON: ${text.slice(0, 300)}`);
  }
}
