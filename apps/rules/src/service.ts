import type { Bus } from "@fleet/bus";
import { ConsumerGroups, Topics } from "@fleet/contracts";

export interface RulesLogger {
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface Rules {
  /** Enriched positions seen since start. */
  seen(): number;
  close(): Promise<void>;
}

/**
 * Joins the rules group on positions.enriched. Event detection (geofences, overspeed,
 * custom events) plugs in here in a later issue; for now it acknowledges what it reads
 * so its group's lag shows the pipeline flowing end to end.
 */
export async function startRules(opts: { bus: Bus; logger: RulesLogger; topic?: string; groupId?: string }): Promise<Rules> {
  let seen = 0;
  const topic = opts.topic ?? Topics.positionsEnriched;
  const consumer = await opts.bus.consume({
    groupId: opts.groupId ?? ConsumerGroups.rules,
    topic,
    fromBeginning: false,
    partitionsConcurrently: 4,
    handleBatch: async ({ partition, messages }) => {
      seen += messages.length;
      opts.logger.debug({ partition, count: messages.length }, "enriched positions read");
    },
  });
  opts.logger.info({ topic }, "rules consuming");
  return { seen: () => seen, close: () => consumer.close() };
}
