import { InvalidInputError } from "@fleet/contracts";
import { RefusedError, type Refusal } from "@fleet/db";

/*
 * The database refuses a write by its own input names (`groupId`, `eventsCustom`); the
 * client sees the request's field (`group_id`) and a sentence. By default the field is
 * the input name in snake case and the sentence follows from the refusal's kind; an
 * endpoint group whose fields or words differ says so in a Wording.
 */

export interface Worded {
  field?: string;
  message?: string | ((refusal: Refusal, label: string) => string);
}
export type Wording = Readonly<Partial<Record<string, Worded>>>;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function sentence(refusal: Refusal, label: string): string {
  switch (refusal.kind) {
    case "unknown":
      return `The selected ${label} ${refusal.many ? "are" : "is"} invalid.`;
    case "taken":
      return `The ${label} has already been taken.`;
    case "limit":
      return `The ${label} may hold at most ${refusal.limit}.`;
    case "inverted":
      return `The ${label} must not be before the start.`;
    case "blank":
      return `The ${label} field is required.`;
    case "unexpected":
      return `The ${label} is only taken with a change it belongs to.`;
  }
}

/** A refusal as the 422's `{field: message}`. */
export function refusalErrors(err: RefusedError, wording: Wording = {}): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, refusal] of Object.entries(err.refusals)) {
    const worded = wording[key] ?? {};
    const field = worded.field ?? snake(key);
    const label = field.replaceAll("_", " ");
    const message = typeof worded.message === "function" ? worded.message(refusal, label) : (worded.message ?? sentence(refusal, label));
    errors[field] = message;
  }
  return errors;
}

/** `work`, with a refusal turned into the 422 in this group's words. */
export async function worded<T>(work: Promise<T>, wording: Wording): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof RefusedError) throw new InvalidInputError(refusalErrors(err, wording));
    throw err;
  }
}
