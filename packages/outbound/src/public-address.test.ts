import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrivateAddressError, isPublicAddress } from "./public-address.js";
import { outboundRequest } from "./request.js";

describe("isPublicAddress", () => {
  it.each(["127.0.0.1", "10.1.2.3", "172.20.0.5", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "not an address",
    // Documentation ranges (TEST-NET), which a server's own network may use.
    "192.0.2.2", "198.51.100.1", "203.0.113.1", "2001:db8::1",
    // NAT64 and 6to4 carrying a private IPv4 address, in either notation; Teredo.
    "64:ff9b::7f00:1", "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "2002:c0a8:0101::1", "2001:0:4136:e378::1"])(
    "refuses %s",
    (a) => expect(isPublicAddress(a)).toBe(false),
  );
  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::808:808", "64:ff9b::8.8.8.8", "2002:808:808::1"])("allows %s", (a) => expect(isPublicAddress(a)).toBe(true));
});

describe("a request to a private address", () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.statusCode = 204;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const to = (host: string) => ({ url: new URL(`http://${host}:${port}/hook`), method: "POST" as const, headers: { "content-type": "application/json" }, body: "{}" });

  it("is refused unless the server allows private targets, whether named by address or by name", async () => {
    for (const host of ["127.0.0.1", "localhost"]) {
      await expect(outboundRequest(to(host), { timeoutMs: 2000, allowPrivate: false }), host).rejects.toBeInstanceOf(PrivateAddressError);
    }
    expect(hits).toBe(0);
    expect(await outboundRequest(to("127.0.0.1"), { timeoutMs: 2000, allowPrivate: true })).toBe(204);
    expect(hits).toBe(1);
  });
});
