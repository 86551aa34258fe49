import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import type { ServiceName } from "./services.js";

/**
 * True when the named service answered in global setup. Integration suites use
 * `describe.runIf(hasService("kafka"))`: without the service they are skipped,
 * which global setup reports, and in CI the run has already failed.
 */
export function hasService(name: ServiceName): boolean {
  return inject("services")[name];
}

/** A short random suffix that keeps one test's topics, databases and keys apart from another's. */
export function uniqueSuffix(): string {
  return randomBytes(5).toString("hex");
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
