import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { sleep } from "./fixtures.js";

/** How a child process ended: its exit code, or the signal that ended it. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A test's helper process that reports on stdout, one JSON object per line (`{"event": ...}`),
 * as the crash tests' children do: its lines as they arrive, its stderr kept (bounded) for the
 * failure message, and waits on both.
 */
export class ScriptChild<E extends { event: string }> {
  readonly events: E[] = [];
  stderr = "";
  readonly exited: Promise<ChildExit>;
  private exitInfo: ChildExit | undefined;
  private waiters = new Set<() => void>();
  private readonly proc: ChildProcess;

  /** Runs the TypeScript `script` (from source, as the tests run) in `cwd` with `env` added to this process's. */
  constructor(
    readonly name: string,
    script: string,
    env: Record<string, string>,
    cwd: string,
  ) {
    this.proc = spawn(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      // Bounded: a chatty failure must not eat the test's memory.
      this.stderr = (this.stderr + chunk).slice(-64_000);
    });
    createInterface({ input: this.proc.stdout! }).on("line", (line) => {
      try {
        this.events.push(JSON.parse(line) as E);
      } catch {
        this.stderr = `${this.stderr}[stdout, not JSON] ${line}\n`.slice(-64_000);
      }
      this.wake();
    });
    this.exited = new Promise((resolve) => {
      this.proc.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        this.wake();
        resolve(this.exitInfo);
      });
    });
  }

  private wake() {
    for (const w of this.waiters) w();
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  last(event?: E["event"]): E | undefined {
    return event ? this.events.findLast((e) => e.event === event) : this.events.at(-1);
  }

  /** The first event (from now on, or already seen) matching `pred`; throws if the process ends first or on timeout. */
  async waitFor(what: string, pred: (e: E) => boolean, timeoutMs: number): Promise<E> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.events.find(pred);
      if (hit) return hit;
      if (!this.alive) throw new Error(`${this.name} exited (${JSON.stringify(this.exitInfo)}) before ${what}; stderr:\n${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.name}: no ${what} within ${timeoutMs} ms; last event ${JSON.stringify(this.last())}; stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  kill(signal: NodeJS.Signals): void {
    if (this.alive) this.proc.kill(signal);
  }

  async stop(signal: NodeJS.Signals, timeoutMs: number): Promise<ChildExit> {
    this.kill(signal);
    const result = await Promise.race([this.exited, sleep(timeoutMs).then(() => undefined)]);
    if (result) return result;
    this.kill("SIGKILL");
    throw new Error(`${this.name} did not exit within ${timeoutMs} ms of ${signal}; stderr:\n${this.stderr}`);
  }
}

/** What a failed test prints of its children: each one's stderr and last few lines. */
export function describeChildren(children: readonly ScriptChild<{ event: string }>[]): string {
  return children.map((c) => `--- ${c.name} stderr ---\n${c.stderr || "(empty)"}\n--- ${c.name} last events ---\n${c.events.slice(-5).map((e) => JSON.stringify(e)).join("\n")}`).join("\n");
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed with the same tracks. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
