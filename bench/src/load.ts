import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** What the load process fires: the same spec for the baseline and the app under test. */
export type LoadSpec =
  | { kind: "traccar-get"; url: string; connections: number; durationS: number; devices: number; fixTime: number }
  | { kind: "batch-post"; url: string; connections: number; durationS: number; devices: number; fixTime: number; batchSize: number };

export interface LoadResult {
  /** Successful (2xx) responses per second over the run. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyAvgMs: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  durationS: number;
  /** CPU time of the load generator over the run's wall time (1 = one full core). */
  loadCpuShare: number;
  /** CPU time of the server's process over the run's wall time; filled by the caller. */
  serverCpuShare?: number;
  /** CPU time of this (the server's) process during the run, per successful request, in µs; filled by the caller. */
  serverCpuUsPerReq?: number;
  /** The local Kafka broker's CPU time during the run, per successful request, in µs (see broker-cpu.ts). */
  brokerCpuUsPerReq?: number;
  /** Mean messages per bus send during the run (how many requests shared a send). */
  messagesPerSend?: number;
  /** Mean time from a send's start to its acknowledgement, ms. */
  sendMsAvg?: number;
  /** Responses by HTTP status, and the body of the first non-2xx one (diagnostics). */
  statusCodes: Record<string, number>;
  firstFailure?: string;
}

const worker = fileURLToPath(new URL("./load-worker.ts", import.meta.url));

/**
 * Runs autocannon in a child process (the same tsx flags as this one), so the load
 * generator has its own event loop and core and does not steal the server's.
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [JSON.stringify(spec)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let result: LoadResult | undefined;
    child.on("message", (m) => {
      result = m as LoadResult;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (result) resolve(result);
      else reject(new Error(`load generator exited with code ${code} and no result`));
    });
  });
}

/** A LoadSpec without its target and duration, which `measure` fills in. */
export type LoadShape = LoadSpec extends infer S ? (S extends LoadSpec ? Omit<S, "url" | "durationS"> : never) : never;
