import type { FastifyReply } from "fastify";
import { releaseOnFinish, writeAnswer } from "./native-json.js";

/** Where JSON written by hand goes: text as UTF-8, and bytes that are JSON already, in order. */
export interface JsonOut {
  text(s: string): void;
  bytes(b: Uint8Array): void;
}

/** A number as JSON.stringify writes it: null when it is missing or not finite. */
export const jsonNumber = (n: number | null): string => (n !== null && Number.isFinite(n) ? String(n) : "null");

declare const jsonOf: unique symbol;

/**
 * Writes the JSON of a T, by hand, where building the object and stringifying it costs too
 * much (a get_history device-day): text, and UTF-8 bytes made elsewhere (the history store's
 * position fields) copied as they are, straight into the answer's buffer so nothing is kept
 * in between. The brand ties the writer to the schema type it writes; tests check the text
 * against its schema.
 */
export type JsonWrite<T> = ((out: JsonOut) => void) & { readonly [jsonOf]: T };

/** Marks `write` as writing the JSON of a T: its author vouches for it. */
export const asJsonWrite = <T>(write: (out: JsonOut) => void): JsonWrite<T> => write as JsonWrite<T>;

/** Answers what `write` writes, from a kept buffer (see native-json.ts). */
export function sendJsonWrite<T>(reply: FastifyReply, write: JsonWrite<T>): FastifyReply {
  const answer = writeAnswer(write);
  releaseOnFinish(reply, answer);
  return reply.type("application/json; charset=utf-8").send(answer);
}
