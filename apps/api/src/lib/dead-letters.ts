import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { Bus, BusProducer } from "@fleet/bus";
import { DeadLetterRepublishedSchema, DeadLetterSchema, REPUBLISHED_KEY, type DeadLetter } from "@fleet/contracts";

export interface ListedDeadLetter extends DeadLetter {
  /** Epoch ms of the republish that sent it back, if one did. */
  republishedAt: number | null;
}

/** The operators' side of the dead-letter topics: what is there, and sending it back after a fix. */
export interface DeadLetters {
  /** Every letter the topic holds, oldest first. */
  list(deadTopic: string): Promise<ListedDeadLetter[]>;
  /**
   * Sends letters back to the topic they came from, as they were: the given ones, or every
   * one not republished yet. Leaves a note on the dead-letter topic so a listing shows them
   * as republished and the next republish skips them. Returns how many were sent.
   */
  republish(deadTopic: string, ids?: readonly string[]): Promise<number>;
}

const LetterCheck = TypeCompiler.Compile(DeadLetterSchema);
const NoteCheck = TypeCompiler.Compile(DeadLetterRepublishedSchema);
/** The newest letters of each partition a listing reads; a topic past that is a fire to put out first. */
const PER_PARTITION = 10_000;

export function busDeadLetters(bus: Bus, producer: BusProducer, opts: { sendTimeoutMs?: number } = {}): DeadLetters {
  const sendTimeoutMs = opts.sendTimeoutMs ?? 10_000;

  async function list(deadTopic: string): Promise<ListedDeadLetter[]> {
    const letters: DeadLetter[] = [];
    const republishedAt = new Map<string, number>();
    for (const m of await bus.read(deadTopic, { perPartition: PER_PARTITION })) {
      let v: unknown;
      try {
        v = JSON.parse(m.value.toString("utf8"));
      } catch {
        continue; // not ours: nothing a listing can show
      }
      if (m.key === REPUBLISHED_KEY && NoteCheck.Check(v)) for (const id of v.republished) republishedAt.set(id, v.at);
      else if (LetterCheck.Check(v)) letters.push(v);
    }
    return letters.sort((a, b) => a.deadAt - b.deadAt).map((l) => ({ ...l, republishedAt: republishedAt.get(l.id) ?? null }));
  }

  return {
    list,
    async republish(deadTopic, ids) {
      const wanted = ids ? new Set(ids) : undefined;
      const chosen = (await list(deadTopic)).filter((l) => (wanted ? wanted.has(l.id) : l.republishedAt === null));
      if (chosen.length === 0) return 0;
      // Each original topic in one send, in the order they died (per-key order holds within a send).
      const byTopic = new Map<string, DeadLetter[]>();
      for (const l of chosen) {
        const list = byTopic.get(l.topic);
        if (list) list.push(l);
        else byTopic.set(l.topic, [l]);
      }
      for (const [topic, letters] of byTopic) {
        await producer.send(topic, letters.map((l) => ({ key: l.key, value: Buffer.from(l.value, "base64") })), { timeoutMs: sendTimeoutMs });
      }
      await producer.send(deadTopic, [{ key: REPUBLISHED_KEY, value: JSON.stringify({ republished: chosen.map((l) => l.id), at: Date.now() }) }], { timeoutMs: sendTimeoutMs });
      return chosen.length;
    },
  };
}
