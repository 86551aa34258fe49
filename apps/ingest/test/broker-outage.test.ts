/**
 * Reliability: the broker stopped and restarted under load.
 *
 * DESIGN.md promises that a position ingest acknowledged (200 from `GET /insert.php`) is never
 * lost: ingest answers only once Kafka holds it with acks=all. While the broker is down ingest
 * must refuse (503) within its send timeout rather than acknowledge, and once the broker is back
 * it must take positions again by itself, without a restart.
 *
 * A real ingest server (built as server.ts builds it) runs against a broker of this test's own
 * (infra/kafka.sh with KAFKA_RUN_DIR, other ports: the shared broker on 9092 is never touched).
 * Keep-alive clients send positions, each with a marker of its own (`attributes={"seq":N}`),
 * while the broker is stopped for 15 s and started again on the same data. Then the topic is read
 * whole, and every acknowledged marker must be on it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import Fastify from "fastify";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, type Bus } from "@fleet/bus";
import { Topics } from "@fleet/contracts";
import { PrivateBroker, hasService, sleep } from "@fleet/testkit";
import { ingestApp } from "../src/app.js";
import { createPublisher, type Publisher } from "../src/publisher.js";
import { ingestServerOptions } from "../src/server-options.js";


const CLIENTS = 32;
const SEND_TIMEOUT_MS = 3000;
/** A refusal must come within the send timeout and a margin (a request may wait for sends ahead of it). */
const MAX_REFUSAL_MS = 10_000;
const LOAD_BEFORE_MS = 5000;
const OUTAGE_MS = 15_000;
/** Load kept on after the first 200 once the broker is back. */
const LOAD_AFTER_MS = 5000;
/** Generous: kafkajs backs off up to 30 s between reconnects. */
const MAX_RECOVERY_S = 60;
/** A client gives up on a request after this long (counted as "other"). */
const CLIENT_TIMEOUT_MS = 20_000;

const log = (line: string) => console.log(`[reliability] ${line}`);

interface Outcome {
  seq: number;
  sentAt: number;
  answeredAt: number;
  /** The HTTP status, or 0 when the request failed without one. */
  status: number;
  error?: string;
}

/** One GET over a keep-alive agent; never rejects. */
function get(agent: http.Agent, port: number, path: string): Promise<{ status: number; error?: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent, timeout: CLIENT_TIMEOUT_MS }, (res) => {
      res.resume();
      res.once("end", () => resolve({ status: res.statusCode ?? 0 }));
      res.once("error", (err) => resolve({ status: 0, error: err.message }));
    });
    req.once("timeout", () => req.destroy(new Error(`no answer within ${CLIENT_TIMEOUT_MS} ms`)));
    req.once("error", (err) => resolve({ status: 0, error: err.message }));
  });
}

/** `clients` loops, each sending one position after the other until `stop()`. */
function startLoad(port: number, clients: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const outcomes: Outcome[] = [];
  let nextSeq = 0;
  let running = true;
  const fixTimeBase = Date.now() - 60_000;
  const loop = async (client: number) => {
    while (running) {
      const seq = nextSeq++;
      // Distinct per request twice over: the seq attribute, and (uniqueId, fixTime).
      const path =
        `/insert.php?uniqueId=outage-${client}&protocol=osmand&latitude=${(50 + (seq % 1000) / 10_000).toFixed(4)}&longitude=25.1` +
        `&altitude=1&speed=1&course=1&fixTime=${fixTimeBase + seq}&attributes=${encodeURIComponent(JSON.stringify({ seq }))}`;
      const sentAt = Date.now();
      const { status, error } = await get(agent, port, path);
      outcomes.push({ seq, sentAt, answeredAt: Date.now(), status, ...(error ? { error } : {}) });
    }
  };
  const loops = Array.from({ length: clients }, (_, c) => loop(c));
  return {
    outcomes,
    get sent() {
      return nextSeq;
    },
    /** Stops sending and waits for every request in flight to be answered. */
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** A pino logger that keeps no lines, only how many there were per message, and the last few. */
function countingLogger(level: string) {
  const counts = new Map<string, number>();
  const last: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n")) {
        if (!line) continue;
        const msg = String((JSON.parse(line) as { msg?: unknown }).msg);
        counts.set(msg, (counts.get(msg) ?? 0) + 1);
        last.push(line.slice(0, 600));
        if (last.length > 10) last.shift();
      }
      done();
    },
  });
  return { logger: pino({ level }, stream), counts, last };
}

/** Waits for `work` at most `ms`; a cleanup step that hangs must not keep the broker running. */
async function bounded(what: string, work: Promise<unknown> | undefined, ms = 15_000): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`[reliability] ${what} did not finish within ${ms} ms; going on`);
      resolve();
    }, ms);
  });
  await Promise.race([work.catch((err: unknown) => console.warn(`[reliability] ${what} failed: ${String(err)}`)), timeout]);
  clearTimeout(timer);
}

const s = (ms: number) => (ms / 1000).toFixed(1);

describe.runIf(hasService("kafka"))("ingest when the broker stops and restarts under load", () => {
  let broker: PrivateBroker | undefined;
  let bus: Bus | undefined;
  let publisher: Publisher | undefined;
  let ingest: { port: number; close(): Promise<unknown> } | undefined;
  let load: ReturnType<typeof startLoad> | undefined;
  const ingestLog = countingLogger("warn");

  beforeAll(async () => {
    broker = await PrivateBroker.create();
    await broker.run("start");
    // The retry settings are production's (createBus's): the test shows what ingest does as deployed.
    bus = createKafkaBus({ brokers: broker.brokers, clientId: "fleet-ingest", logger: ingestLog.logger });
    await bus.ensureTopics([Topics.positionsRaw], 12);
    // As server.ts builds it: the publisher, then fastify with the ingest server's options
    // (serverFactoryWith(insertGetFastPath(...)): GET /insert.php before fastify).
    publisher = createPublisher({ producer: await bus.producer(), batchMax: 1000, lingerMs: 2, sendTimeoutMs: SEND_TIMEOUT_MS });
    const app = Fastify(ingestServerOptions(ingestLog.logger, publisher));
    await app.register(ingestApp, { publisher });
    await app.listen({ host: "127.0.0.1", port: 0 });
    ingest = { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  }, 120_000);

  afterAll(async () => {
    try {
      await bounded("load", load?.stop(), CLIENT_TIMEOUT_MS + 5000);
      await bounded("ingest server", ingest?.close());
      await bounded("publisher", publisher?.close());
      await bounded("bus", bus?.close());
    } finally {
      await broker?.destroy();
    }
  }, 120_000);

  it("acknowledges only what Kafka holds, refuses within the send timeout while it is down, and recovers by itself", async () => {
    const t0 = Date.now();
    load = startLoad(ingest!.port, CLIENTS);
    await sleep(LOAD_BEFORE_MS);

    const stopIssuedAt = Date.now();
    await broker!.run("stop");
    const stoppedAt = Date.now();
    await sleep(OUTAGE_MS);

    const startIssuedAt = Date.now();
    let upAt: number | undefined;
    const starting = broker!.run("start", (out) => {
      if (upAt === undefined && out.includes(" up on ")) upAt = Date.now();
    });
    // Recovered: a 200 for a request sent while the broker was down or after.
    const firstOk = () => {
      let first: number | undefined;
      for (const o of load!.outcomes) if (o.status === 200 && o.sentAt > stoppedAt && (first === undefined || o.answeredAt < first)) first = o.answeredAt;
      return first;
    };
    const recoveryDeadline = startIssuedAt + MAX_RECOVERY_S * 1000 + 30_000;
    let recoveredAt: number | undefined;
    while ((recoveredAt = firstOk()) === undefined && Date.now() < recoveryDeadline) await sleep(100);
    const startOutput = await starting;
    if (recoveredAt !== undefined) await sleep(LOAD_AFTER_MS);
    await load.stop();
    const loadEndedAt = Date.now();

    // Everything on the topic, read by a client of its own (a fresh throwaway group from the start).
    const reader = createKafkaBus({ brokers: broker!.brokers, clientId: "outage-reader" });
    let onTopic;
    try {
      onTopic = await reader.read(Topics.positionsRaw);
    } finally {
      await reader.close();
    }

    const sent = load.sent;
    const copies = new Uint32Array(sent);
    let foreign = 0;
    for (const m of onTopic) {
      const seq = (JSON.parse(m.value.toString()) as { attributes?: { seq?: unknown } }).attributes?.seq;
      if (typeof seq === "number" && Number.isInteger(seq) && seq >= 0 && seq < sent) copies[seq]!++;
      else foreign++;
    }
    const outcomes = load.outcomes;
    const acked = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status === 503);
    const other = outcomes.filter((o) => o.status !== 200 && o.status !== 503);
    const lost = acked.filter((o) => copies[o.seq] === 0);
    let duplicates = 0;
    for (const c of copies) if (c > 1) duplicates += c - 1;
    const refusedOnTopic = refused.filter((o) => copies[o.seq]! > 0).length;
    // No broker process existed between these two moments: nothing sent then can have been acknowledged.
    const ackedWhileDown = acked.filter((o) => o.sentAt > stoppedAt && o.answeredAt < startIssuedAt).length;
    const refusalMs = refused.map((o) => o.answeredAt - o.sentAt).sort((a, b) => a - b);
    const maxRefusalMs = refusalMs.at(-1) ?? 0;
    const p50RefusalMs = refusalMs[Math.floor(refusalMs.length / 2)] ?? 0;
    const ackedBefore = acked.filter((o) => o.answeredAt < stopIssuedAt).length;
    const ackedAfter = acked.filter((o) => o.answeredAt >= startIssuedAt).length;
    // From the moment kafka.sh saw the broker answer (it polls once a second, so a 200 may come first).
    const recoveryS = recoveredAt === undefined ? Infinity : Math.max(0, recoveredAt - (upAt ?? startIssuedAt)) / 1000;

    log(
      `broker_outage acked=${acked.length} refused=${refused.length} other=${other.length} on_topic=${onTopic.length} lost=${lost.length} ` +
        `duplicates=${duplicates} false_acks=${lost.length + ackedWhileDown} max_refusal_ms=${maxRefusalMs} recovery_s=${recoveryS.toFixed(1)}`,
    );
    log(
      `broker_outage_detail sent=${sent} clients=${CLIENTS} send_timeout_ms=${SEND_TIMEOUT_MS} acked_before=${ackedBefore} acked_after=${ackedAfter} ` +
        `acked_while_down=${ackedWhileDown} refused_on_topic=${refusedOnTopic} foreign_on_topic=${foreign} p50_refusal_ms=${p50RefusalMs} ` +
        `stop_s=${s(stoppedAt - stopIssuedAt)} down_s=${s((upAt ?? startIssuedAt) - stoppedAt)} broker_start_s=${s((upAt ?? startIssuedAt) - startIssuedAt)} ` +
        `restart_to_first_ok_s=${recoveredAt === undefined ? "never" : s(recoveredAt - startIssuedAt)} load_s=${s(loadEndedAt - t0)}`,
    );
    log(`ingest and kafkajs log lines (warn+): ${JSON.stringify(Object.fromEntries(ingestLog.counts))}`);
    if (other.length > 0) log(`other answers, first few: ${JSON.stringify(other.slice(0, 5))}`);
    if (lost.length > 0) log(`lost, first few: ${JSON.stringify(lost.slice(0, 5))}; last ingest log lines:\n${ingestLog.last.join("\n")}`);
    if (recoveredAt === undefined) log(`no 200 after the restart; kafka.sh start said: ${startOutput.trim()}\n${ingestLog.last.join("\n")}`);

    expect(lost.length, "acknowledged positions missing from the topic").toBe(0);
    expect(ackedWhileDown, "200s for requests sent while no broker ran").toBe(0);
    expect(other.length, "answers other than 200 and 503").toBe(0);
    expect(ackedBefore, "positions acknowledged before the outage").toBeGreaterThan(0);
    expect(refused.length, "refusals while the broker was down").toBeGreaterThan(0);
    expect(maxRefusalMs, "slowest 503").toBeLessThanOrEqual(MAX_REFUSAL_MS);
    expect(recoveryS, "seconds from the broker answering again to ingest's first 200").toBeLessThanOrEqual(MAX_RECOVERY_S);
    expect(ackedAfter, "positions acknowledged after the restart").toBeGreaterThan(0);
  }, 180_000);
});
