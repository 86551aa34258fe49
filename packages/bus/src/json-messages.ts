import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { PermanentError } from "./failures.js";
import type { Rejected } from "./dead-letter.js";
import type { DeliveredMessage } from "./port.js";

/**
 * The decoder of a topic's JSON messages of one schema: each message's value, or why it
 * carries none (not JSON; `not <what>:` and the first schema error), as a PermanentError,
 * since retrying cannot fix a message.
 */
export function jsonMessages<S extends TSchema>(schema: S, what: string): (m: DeliveredMessage) => Static<S> | PermanentError {
  const check = TypeCompiler.Compile(schema);
  return (m) => {
    let v: unknown;
    try {
      v = JSON.parse(m.value.toString("utf8"));
    } catch (err) {
      return new PermanentError(`not JSON: ${(err as Error).message}`);
    }
    if (check.Check(v)) return v;
    const first = check.Errors(v).First();
    return new PermanentError(first ? `not ${what}: ${first.path || "/"} ${first.message}` : `not ${what}`);
  };
}

/** A batch's values in order, and the messages that carry none, for the dead-letter topic. */
export function decodeAll<T>(messages: readonly DeliveredMessage[], decode: (m: DeliveredMessage) => T | PermanentError): { values: T[]; rejected: Rejected[] } {
  const values: T[] = [];
  const rejected: Rejected[] = [];
  for (const message of messages) {
    const v = decode(message);
    if (v instanceof PermanentError) rejected.push({ message, error: v });
    else values.push(v);
  }
  return { values, rejected };
}
