import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ListenError, listenAt } from "./listen.js";

/** node:http's listen as a promise, as fastify's is. */
const listen = (server: Server) => (at: { host: string; port: number }) =>
  new Promise<number>((resolve, reject) => server.once("error", reject).listen(at.port, at.host, () => resolve((server.address() as AddressInfo).port)));

describe("listenAt", () => {
  const servers: Server[] = [];
  const server = () => {
    const s = createServer();
    servers.push(s);
    return s;
  };
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });

  it("listens, and says which setting to change when the port is taken or the host is not this machine's", async () => {
    const port = await listenAt({ host: "127.0.0.1", port: 0, setting: "PORT" }, listen(server()));
    expect(port).toBeGreaterThan(0);
    await expect(listenAt({ host: "127.0.0.1", port, setting: "OSMAND_PORT" }, listen(server()))).rejects.toThrow(
      new ListenError(`127.0.0.1:${port} is already in use by another program: stop it, or choose another OSMAND_PORT.`),
    );
    // 192.0.2.0/24 is for documentation: no machine has it.
    await expect(listenAt({ host: "192.0.2.1", port: 0, setting: "PORT" }, listen(server()))).rejects.toThrow(
      new ListenError("192.0.2.1 is no address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all)."),
    );
    await expect(listenAt({ host: "192.0.2.1", port: 0, setting: "HEALTH_PORT", hostSetting: "HEALTH_HOST" }, listen(server()))).rejects.toThrow(/^192\.0\.2\.1 is no address of this machine: set HEALTH_HOST /);
  });

  it("passes any other failure on as it is", async () => {
    const failure = new Error("the plugins did not load");
    await expect(listenAt({ host: "127.0.0.1", port: 0, setting: "PORT" }, () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
