import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { Client } from "../live/http.js";
import { checkedGet } from "./endpoints.js";

/*
 * The measured requests' HTTP client, on a thread of its own. The app answers in this
 * process (it shares the chDB engine with the raw queries), and a client on its event loop
 * would take turns with it: reading and checking a 5 MB answer cost the app's thread
 * ~5–10 ms per request that no real client, on another machine, ever costs it.
 */

interface Ask {
  n: number;
  path: string;
  checked: boolean;
}
type Answer = { n: number; status: number; bytes: number } | { n: number; error: string };

if (!isMainThread) {
  const client = new Client(workerData as string, { maxSockets: 1, timeoutMs: 120_000 });
  parentPort!.on("message", ({ n, path, checked }: Ask) => {
    const answer = checked ? checkedGet(client, path).then((bytes) => ({ n, status: 200, bytes })) : client.get(path).then((r) => ({ n, status: r.status, bytes: r.bytes }));
    answer.then(
      (a) => parentPort!.postMessage(a satisfies Answer),
      (e: unknown) => parentPort!.postMessage({ n, error: e instanceof Error ? e.message : String(e) } satisfies Answer),
    );
  });
}

export class ThreadClient {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(a: { status: number; bytes: number }): void; reject(e: Error): void }>();
  private next = 0;

  constructor(baseUrl: string) {
    this.worker = new Worker(new URL("./client-thread-entry.mjs", import.meta.url), { workerData: baseUrl });
    this.worker.on("message", (a: Answer) => {
      const w = this.waiting.get(a.n);
      this.waiting.delete(a.n);
      if ("error" in a) w?.reject(new Error(a.error));
      else w?.resolve(a);
    });
    this.worker.on("error", (e) => {
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    });
  }

  private ask(path: string, checked: boolean): Promise<{ status: number; bytes: number }> {
    const n = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(n, { resolve, reject });
      this.worker.postMessage({ n, path, checked } satisfies Ask);
    });
  }

  /** The answer's status. */
  async status(path: string): Promise<number> {
    return (await this.ask(path, false)).status;
  }

  /** As checkedGet: 200 with a success body, or an error; the answer's size in bytes. */
  async checkedGet(path: string): Promise<number> {
    return (await this.ask(path, true)).bytes;
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
