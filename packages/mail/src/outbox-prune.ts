import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { MailLogger } from "./port.js";

/*
 * The outbox keeps what it wrote for a while, not for ever: scheduled reports mail their
 * files every day, and an embedded install would otherwise fill its disk with them. A
 * message's age is read from its name (outboxFileName puts the UTC time first), so the
 * files' times, which a copy or a backup restore changes, do not matter.
 */

const DAY_MS = 86_400_000;
const STAMP = /^\.?(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-/;

/** When a message of this name was written (epoch ms), or undefined for a name the outbox did not make. */
export function writtenAt(name: string): number | undefined {
  const m = STAMP.exec(name);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Deletes the messages written more than `keepDays` before `now`, and temporary files a
 * crash left (those are never older than a day for a good reason). Files the outbox did
 * not name are left alone. Resolves with how many went; a file that cannot be deleted is
 * logged and kept.
 */
export async function pruneOutbox(dir: string, keepDays: number, logger: MailLogger, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const at = writtenAt(name);
    if (at === undefined) continue;
    const tmp = name.startsWith(".");
    if (now - at <= (tmp ? DAY_MS : keepDays * DAY_MS)) continue;
    try {
      await unlink(join(dir, name));
      removed++;
    } catch (err) {
      logger.warn({ file: name, error: (err as Error).message }, "could not delete an old outbox message");
    }
  }
  if (removed > 0) logger.info({ removed, keepDays }, "old outbox messages deleted");
  return removed;
}
