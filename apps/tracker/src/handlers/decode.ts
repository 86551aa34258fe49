import { decodeAll, jsonMessages, type DeliveredMessage, type Rejected } from "@fleet/bus";
import { RawPositionSchema, type RawPosition } from "@fleet/contracts";

/** The position a message carries, or why it carries none. */
export const decode = jsonMessages(RawPositionSchema, "a position");

/** A batch's positions in order, and the messages that are none, for the dead-letter topic: retrying cannot fix them. */
export function decodeBatch(messages: readonly DeliveredMessage[]): { raws: RawPosition[]; rejected: Rejected[] } {
  const { values, rejected } = decodeAll(messages, decode);
  return { raws: values, rejected };
}
