import { describe, expect, it } from "vitest";
import type { BusProducer, OutgoingMessage } from "@fleet/bus";
import type { ParsedPosition } from "./parse.js";
import { BusUnavailableError, createPublisher } from "./publisher.js";

const position = (uniqueId: string): ParsedPosition => ({
  uniqueId,
  protocol: "osmand",
  latitude: 1,
  longitude: 2,
  altitude: 0,
  course: 0,
  speed: 0,
  fixTime: Date.now(),
  attributes: {},
});

/** A producer whose sends wait until the test settles them. */
function manualProducer(name: string) {
  const sends: { messages: readonly OutgoingMessage[]; resolve(): void; reject(err: Error): void }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let closed = false;
  const producer: BusProducer = {
    send: (_topic, messages) =>
      new Promise<void>((resolve, reject) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const done = () => inFlight--;
        sends.push({
          messages,
          resolve: () => {
            done();
            resolve();
          },
          reject: (err) => {
            done();
            reject(err);
          },
        });
      }),
    close: async () => {
      closed = true;
    },
  };
  return {
    name,
    producer,
    sends,
    get maxInFlight() {
      return maxInFlight;
    },
    get closed() {
      return closed;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("publisher", () => {
  it("has one send in flight at a time; what comes meanwhile goes in the next send", async () => {
    const a = manualProducer("a");
    const publisher = createPublisher({ producer: a.producer, batchMax: 100, lingerMs: 0, sendTimeoutMs: 5000 });
    const first = publisher.publish([position("d1")]);
    await tick();
    const later = [publisher.publish([position("d2")]), publisher.publish([position("d3")])];
    await tick();
    expect(a.sends).toHaveLength(1);
    a.sends[0]!.resolve();
    await first;
    await tick();
    expect(a.sends).toHaveLength(2);
    expect(a.sends[1]!.messages.map((m) => m.key)).toEqual(["d2", "d3"]);
    a.sends[1]!.resolve();
    await Promise.all(later);
    expect(a.maxInFlight).toBe(1);
  });

  it("replaces a producer whose send failed or timed out, closing it, and sends nothing more through it", async () => {
    const a = manualProducer("a");
    const opened = [manualProducer("b"), manualProducer("c")];
    let opens = 0;
    const publisher = createPublisher({ producer: a.producer, openProducer: async () => opened[opens++]!.producer, batchMax: 100, lingerMs: 0, sendTimeoutMs: 100 });

    const failed = publisher.publish([position("d1")]);
    await tick();
    a.sends[0]!.reject(new Error("NOT_LEADER_OR_FOLLOWER"));
    await expect(failed).rejects.toBeInstanceOf(BusUnavailableError);
    expect(a.closed).toBe(true);

    // The next send goes through a new producer; this one never answers: 503 at the deadline.
    await expect(publisher.publish([position("d2")])).rejects.toBeInstanceOf(BusUnavailableError);
    expect(opened[0]!.sends).toHaveLength(1);
    expect(opened[0]!.closed).toBe(true);

    const ok = publisher.publish([position("d3")]);
    await tick();
    opened[1]!.sends[0]!.resolve();
    await ok;
    expect(opens).toBe(2);
    expect(a.sends).toHaveLength(1);
    expect(opened[0]!.sends).toHaveLength(1);
    await publisher.close();
    expect(opened[1]!.closed).toBe(true);
  });

  it("does not send through a producer that opened after the send's deadline, and uses it for the next send", async () => {
    const a = manualProducer("a");
    const b = manualProducer("b");
    let openB!: () => void;
    let opens = 0;
    const publisher = createPublisher({
      producer: a.producer,
      openProducer: () => {
        opens++;
        return new Promise<BusProducer>((resolve) => (openB = () => resolve(b.producer)));
      },
      batchMax: 100,
      lingerMs: 0,
      sendTimeoutMs: 50,
    });
    const failed = publisher.publish([position("d1")]);
    await tick();
    a.sends[0]!.reject(new Error("connection closed"));
    await expect(failed).rejects.toBeInstanceOf(BusUnavailableError);

    // b is still opening when this send's deadline passes.
    await expect(publisher.publish([position("d2")])).rejects.toBeInstanceOf(BusUnavailableError);
    openB();
    await tick();
    expect(b.sends).toHaveLength(0);

    const ok = publisher.publish([position("d3")]);
    await tick();
    expect(b.sends.map((s) => s.messages.map((m) => m.key))).toEqual([["d3"]]);
    b.sends[0]!.resolve();
    await ok;
    expect(opens).toBe(1);
  });

  it("keeps a producer given without openProducer", async () => {
    const a = manualProducer("a");
    const publisher = createPublisher({ producer: a.producer, batchMax: 100, lingerMs: 0, sendTimeoutMs: 100 });
    const failed = publisher.publish([position("d1")]);
    await tick();
    a.sends[0]!.reject(new Error("boom"));
    await expect(failed).rejects.toBeInstanceOf(BusUnavailableError);
    const ok = publisher.publish([position("d2")]);
    await tick();
    a.sends[1]!.resolve();
    await ok;
    expect(a.closed).toBe(false);
  });
});
