import { TypeCompiler } from "@sinclair/typebox/compiler";
import { PermanentError, type DeliveredMessage, type Rejected } from "@fleet/bus";
import { RawPositionSchema, type RawPosition } from "@fleet/contracts";

const RawPositionCheck = TypeCompiler.Compile(RawPositionSchema);

/** The position a message carries, or why it carries none. */
export function decode(m: DeliveredMessage): RawPosition | PermanentError {
  let v: unknown;
  try {
    v = JSON.parse(m.value.toString("utf8"));
  } catch (err) {
    return new PermanentError(`not JSON: ${(err as Error).message}`);
  }
  if (RawPositionCheck.Check(v)) return v;
  const first = RawPositionCheck.Errors(v).First();
  return new PermanentError(first ? `not a position: ${first.path || "/"} ${first.message}` : "not a position");
}

/** A batch's positions in order, and the messages that are none, for the dead-letter topic: retrying cannot fix them. */
export function decodeBatch(messages: readonly DeliveredMessage[]): { raws: RawPosition[]; rejected: Rejected[] } {
  const raws: RawPosition[] = [];
  const rejected: Rejected[] = [];
  for (const message of messages) {
    const raw = decode(message);
    if (raw instanceof PermanentError) rejected.push({ message, error: raw });
    else raws.push(raw);
  }
  return { raws, rejected };
}
