import { Type, type Static } from "@sinclair/typebox";

/**
 * A message that a consumer could never process, as written to a dead-letter topic
 * (`positions.dead`, `events.dead`), keyed like the original. It carries the original
 * bytes unchanged, so it can be published again once the cause is fixed.
 */
export const DeadLetterSchema = Type.Object({
  /** Unique per dead-lettering, so a republish can be recorded against it. */
  id: Type.String({ minLength: 1, description: "a UUID" }),
  /** Where the original came from. */
  topic: Type.String(),
  partition: Type.Integer({ minimum: 0 }),
  offset: Type.String({ description: "the bus's offset of the original (Kafka: `record` or `record:index`)" }),
  groupId: Type.String({ description: "the consumer group that gave up on it" }),
  key: Type.String(),
  /** The original value, base64: it may not be text at all. */
  value: Type.String({ contentEncoding: "base64" }),
  error: Type.Object({
    name: Type.String(),
    message: Type.String(),
    code: Type.Optional(Type.String({ description: "the store's error code, where it gave one (SQLSTATE, ClickHouse code)" })),
  }),
  deadAt: Type.Integer({ description: "epoch ms" }),
});
export type DeadLetter = Static<typeof DeadLetterSchema>;

/**
 * The note `republish` leaves on a dead-letter topic after it sent letters back to their
 * topic, so a listing can say which were and a second republish skips them. It shares the
 * topic with the letters, under the key REPUBLISHED_KEY.
 */
export const DeadLetterRepublishedSchema = Type.Object({
  republished: Type.Array(Type.String()),
  at: Type.Integer({ description: "epoch ms" }),
});
export type DeadLetterRepublished = Static<typeof DeadLetterRepublishedSchema>;
export const REPUBLISHED_KEY = "fleet:republished";
