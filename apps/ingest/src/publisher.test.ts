import { describe, expect, it } from "vitest";
import type { BusProducer, OutgoingMessage } from "@fleet/bus";
import type { ParsedPosition } from "./parse.js";
import { createPublisher } from "./publisher.js";

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
    close: async () => undefined,
  };
  return {
    name,
    producer,
    sends,
    get maxInFlight() {
      return maxInFlight;
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
});
