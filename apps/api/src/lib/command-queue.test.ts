import { describe, expect, it } from "vitest";
import { createMemoryBus, type DeliveredMessage } from "@fleet/bus";
import { Topics, type QueuedCommand } from "@fleet/contracts";
import { CommandQueueUnavailableError, createBusCommandQueue } from "./command-queue.js";

const command = (id: number, imei: string): QueuedCommand => ({ id, userId: 1, deviceId: 2, imei, protocol: "gt06", type: "engineStop", attributes: {}, queuedAt: 1_700_000_000_000 });

describe("the bus command queue", () => {
  it("puts each command on the commands topic keyed by IMEI, in order per device", async () => {
    const bus = createMemoryBus({ partitions: 4 });
    const got: DeliveredMessage[] = [];
    const consumer = await bus.consume({ groupId: "gateway", topic: Topics.commands, handleBatch: async ({ messages }) => void got.push(...messages) });
    const queue = createBusCommandQueue({ producer: await bus.producer() });
    for (let i = 1; i <= 5; i++) await queue.enqueue(command(i, i % 2 ? "111" : "222"));
    await expect.poll(() => got.length).toBe(5);
    const ofDevice = (imei: string) => got.filter((m) => m.key === imei).map((m) => (JSON.parse(m.value.toString()) as QueuedCommand).id);
    expect(ofDevice("111")).toEqual([1, 3, 5]);
    expect(ofDevice("222")).toEqual([2, 4]);
    await consumer.close();
    await bus.close();
  });

  it("gives up with CommandQueueUnavailableError when the bus fails or does not answer in time", async () => {
    const failing = createBusCommandQueue({ producer: { send: async () => Promise.reject(new Error("broker down")), close: async () => undefined } });
    await expect(failing.enqueue(command(1, "1"))).rejects.toBeInstanceOf(CommandQueueUnavailableError);
    const hanging = createBusCommandQueue({ producer: { send: () => new Promise<void>(() => undefined), close: async () => undefined }, sendTimeoutMs: 50 });
    await expect(hanging.enqueue(command(1, "1"))).rejects.toThrow("The command queue is unavailable, try again later.");
  });
});
