import { createServer, type AddressInfo, type Socket } from "node:net";
import { sleep } from "./fixtures.js";

/** A loopback port free right now (the OS's pick), for a process the test starts to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A service that takes connections and never answers, on a loopback port: what a process
 * the test starts waits on forever (a database's connect with no timeout), so it stays in
 * its "starting" state as long as the test needs.
 */
export async function silentServer(): Promise<{ hostPort: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    hostPort: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Polls an app's health endpoint until it answers `status` (refused connections while the
 * app starts are expected), then returns the body; fails naming the last answer after
 * `timeoutMs`, or at once when `exited()` says the process is gone.
 */
export async function waitForHealth(url: string, status: number, opts: { timeoutMs?: number; exited?: () => boolean } = {}): Promise<unknown> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let last = "no answer";
  for (;;) {
    try {
      const res = await fetch(url);
      const body: unknown = await res.json();
      if (res.status === status) return body;
      last = `${res.status} ${JSON.stringify(body)}`;
    } catch (err) {
      last = String(err);
    }
    if (opts.exited?.()) throw new Error(`the process exited before ${url} answered ${status} (last: ${last})`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${status} (last: ${last})`);
    await sleep(100);
  }
}
