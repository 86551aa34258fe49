import { sendWithin, type BusProducer } from "@fleet/bus";
import { Topics, type QueuedCommand } from "@fleet/contracts";

/** The commands port: hands GPRS commands to the device gateways. */
export interface CommandQueue {
  /** Resolves once the queue holds the command durably; rejects with CommandQueueUnavailableError otherwise. */
  enqueue(command: QueuedCommand): Promise<void>;
}

export class CommandQueueUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("The command queue is unavailable, try again later.", { cause });
    this.name = "CommandQueueUnavailableError";
  }
}

export interface BusCommandQueueOptions {
  producer: BusProducer;
  /** How long a request waits for the bus. Default 5 s. */
  sendTimeoutMs?: number;
  /** Default `commands`; tests use their own. */
  topic?: string;
}

/**
 * The commands port over the bus: one message per command on the `commands` topic,
 * keyed by the device's IMEI so a gateway receives each device's commands in order.
 * Commands are rare and a user waits for each, so there is no batching (unlike ingest).
 */
export function createBusCommandQueue(opts: BusCommandQueueOptions): CommandQueue {
  const timeoutMs = opts.sendTimeoutMs ?? 5000;
  const topic = opts.topic ?? Topics.commands;
  return {
    async enqueue(command) {
      try {
        await sendWithin(opts.producer, topic, [{ key: command.imei, value: JSON.stringify(command) }], timeoutMs, "the command");
      } catch (err) {
        throw new CommandQueueUnavailableError(err);
      }
    },
  };
}
