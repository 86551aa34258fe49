import http from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerBuffers } from "./answer-buffers.js";
import { nativeJson } from "./native-json.js";

describe("answer buffers", () => {
  it("encode as UTF-8, and hand a buffer out again only once it is given back", () => {
    const buffers = new AnswerBuffers(10, 2);
    const text = JSON.stringify({ name: "Škoda °C 🚗", pad: "x".repeat(100) });
    const a = buffers.encode(text);
    expect(a.toString("utf8")).toBe(text);
    const b = buffers.encode(text);
    expect(b.buffer).not.toBe(a.buffer);
    buffers.release(a);
    const c = buffers.encode(JSON.stringify({ other: "y".repeat(90) }));
    expect(c.buffer).toBe(a.buffer);
    expect(JSON.parse(c.toString("utf8"))).toEqual({ other: "y".repeat(90) });
    expect(buffers.encode("{}").buffer).not.toBe(b.buffer); // small answers are not pooled
  });

  it("encode whole a text of more bytes than characters into a buffer kept for a shorter one", () => {
    const buffers = new AnswerBuffers(10, 2);
    buffers.release(buffers.encode("x".repeat(100)));
    // 100 characters, 100 to 400 bytes: the kept buffer (125 bytes) has room for the characters, not the bytes.
    for (const text of ["é".repeat(100), "🚗".repeat(50), "x".repeat(118) + "é", "x".repeat(120) + "🚗"]) {
      const answer = buffers.encode(text);
      expect(answer.toString("utf8")).toBe(text);
      buffers.release(answer);
    }
  });

  it("write an answer's pieces in order, text as UTF-8 and bytes as they are, moving to a larger buffer when one runs out", () => {
    const buffers = new AnswerBuffers(16, 2);
    const bytes = new TextEncoder().encode('"id":1,"name":"Škoda"');
    const pieces = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? `{"n":${i},"t":"°C 🚗",` : bytes));
    const expected = pieces.map((p) => (typeof p === "string" ? p : new TextDecoder().decode(p))).join("");
    const a = buffers.write((out) => pieces.forEach((p) => (typeof p === "string" ? out.text(p) : out.bytes(p))));
    expect(a.toString("utf8")).toBe(expected);
    buffers.release(a);
    // The buffer it ended in is kept, large enough for the same answer again.
    const b = buffers.write((out) => pieces.forEach((p) => (typeof p === "string" ? out.text(p) : out.bytes(p))));
    expect(b.buffer).toBe(a.buffer);
    expect(b.toString("utf8")).toBe(expected);
  });
});

describe("the live routes' answers over real connections", () => {
  const app = Fastify();
  let base = "";
  const body = (n: number, fill: string) => ({ items: Array.from({ length: n }, (_, i) => ({ id: i, text: `${fill}${i}`.repeat(40) })) });

  beforeAll(async () => {
    // A response schema, as the live routes have: the route's serializer serves only schema'd answers.
    app.get<{ Querystring: { n: string; fill: string } }>("/big", { ...nativeJson, schema: { response: { 200: { type: "object" } } } }, async (req) => body(Number(req.query.n), req.query.fill));
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  /** Starts a request and reads only its first bytes before cutting the connection. */
  function abandon(path: string): Promise<void> {
    return new Promise((resolve) => {
      const req = http.get(`${base}${path}`, (res) => res.once("data", () => { req.destroy(); resolve(); }));
      req.on("error", () => resolve());
    });
  }

  it("stay whole for a slow reader while other answers are written", async () => {
    const n = 40_000; // ~9 MB: more than a loopback connection takes in at once, so the rest waits on the reader
    const slow = new Promise<string>((resolve, reject) => {
      http.get(`${base}/big?n=${n}&fill=a`, (res) => {
        const chunks: Buffer[] = [];
        res.once("data", (first: Buffer) => {
          chunks.push(first);
          res.pause();
          // Others are answered meanwhile, the first of them the same size.
          void (async () => {
            for (const fill of ["b", "c"]) expect(await (await fetch(`${base}/big?n=${n}&fill=${fill}`)).json()).toEqual(body(n, fill));
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
            res.resume();
          })().catch(reject);
        });
      }).on("error", reject);
    });
    expect(JSON.parse(await slow)).toEqual(body(n, "a"));
  });

  it("are each whole and their own, in parallel, in turn, and after a client hangs up", async () => {
    const fills = ["a", "b", "c", "d", "e", "f"];
    const get = async (fill: string, n = 3000) => expect(await (await fetch(`${base}/big?n=${n}&fill=${fill}`)).json()).toEqual(body(n, fill));
    await Promise.all(fills.map((f) => get(f)));
    for (const f of fills) await get(f, 2000 + f.charCodeAt(0));
    await Promise.all([abandon("/big?n=5000&fill=z"), abandon("/big?n=5000&fill=y")]);
    await Promise.all(fills.map((f) => get(f, 4000)));
  });
});
