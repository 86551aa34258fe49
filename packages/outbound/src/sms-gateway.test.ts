import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendSms, type SmsGatewayConfig } from "./sms-gateway.js";

describe("an SMS gateway at a private address", () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const config = (host: string): SmsGatewayConfig => ({ url: new URL(`http://${host}:${port}/send`), method: "get", json: false });
  const sms = { to: "+37060000000", message: "hi" };

  it("is not called unless the server allows private gateways, whether named by address or by name", async () => {
    for (const host of ["127.0.0.1", "localhost"]) {
      const result = await sendSms(config(host), sms, 2000);
      expect(result, host).toEqual({ ok: false, error: expect.stringContaining("private or reserved address") });
    }
    expect(hits).toBe(0);
    expect(await sendSms(config("127.0.0.1"), sms, 2000, true)).toEqual({ ok: true });
    expect(hits).toBe(1);
  });
});
