import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { defer } from "./harness.js";
import { cpuMsOf } from "./proc.js";

const script = fileURLToPath(new URL("./bare-child.ts", import.meta.url));

/** The baseline: a bare node:http server in a child process answering prebuilt bodies. */
export interface Bare {
  url: string;
  pid: number;
  cpuMs(): number;
  /** Serves each body at `/<name>` from now on. */
  setBodies(bodies: Record<string, Buffer>): Promise<void>;
  stop(): Promise<void>;
}

function next<T>(child: ChildProcess, pick: (m: Record<string, unknown>) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      const v = pick(m as Record<string, unknown>);
      if (v === undefined) return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(v);
    };
    const onExit = (code: number | null) => reject(new Error(`the bare server exited (${code})`));
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

export async function startBare(): Promise<Bare> {
  // The same runtime flags as this process (tsx's loader), structured-clone IPC for the bodies.
  const child = fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "advanced" });
  const stop = defer("stop the bare server", async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    await exited;
  });
  const port = await next(child, (m) => (typeof m.port === "number" ? m.port : undefined));
  const pid = child.pid!;
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    cpuMs: () => cpuMsOf(pid),
    async setBodies(bodies) {
      const ready = next(child, (m) => (m.ready ? true : undefined));
      child.send({ bodies });
      await ready;
    },
    stop,
  };
}
