import { NotFoundError } from "@fleet/contracts";

/**
 * What a user-scoped read or write found; a miss (missing, deleted and another user's
 * answer alike) is the 404 for `what`. The query functions answer a miss with undefined
 * or false, so every domain module turns it into the same failure here.
 */
export async function found<T>(work: Promise<T | undefined | null | false>, what: string): Promise<T> {
  const result = await work;
  if (result === undefined || result === null || result === false) throw new NotFoundError(what);
  return result;
}
