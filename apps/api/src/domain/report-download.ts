import { FailureError, NotFoundError } from "@fleet/contracts";
import { findReportFile, findUserById, isUserUsable, type Db, type FoundReportFile } from "@fleet/db";

/*
 * A generated report's link: the token in it is what authorises the download (a link works
 * mailed or pasted), so no user_api_hash is needed; one that is given must be the owner's,
 * else the link behaves as missing, as a wrong or expired token does.
 */

const WHAT = "Report";
/** A report still pending this long after it was asked for was lost with the instance making it. */
const LOST_AFTER_MS = 15 * 60_000;

export interface DownloadDeps {
  db: Db;
  /** The user a request's api hash names, if any. */
  userByHash(hash: string): Promise<{ id: number } | undefined>;
  /** How long a request for a file still being made waits for it. */
  waitMs: number;
  /** How often it looks again meanwhile. */
  pollMs: number;
}

export type Download = Pick<FoundReportFile, "fileName" | "contentType"> & { body: Buffer };

/** A deactivated or expired account's links stop, as its sharing links do. */
async function ownerUsable(db: Db, userId: number): Promise<boolean> {
  const owner = await findUserById(db, userId);
  return owner !== undefined && isUserUsable(owner);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The file a link names, once ready; a wrong, expired or another user's link is missing. */
export async function downloadReport(deps: DownloadDeps, token: string, apiHash: string | undefined, now = () => Date.now()): Promise<Download> {
  const asker = apiHash === undefined ? undefined : ((await deps.userByHash(apiHash)) ?? null);
  const until = now() + deps.waitMs;
  let ownerChecked = false;
  for (;;) {
    const file = await findReportFile(deps.db, token);
    if (!file || (asker !== undefined && asker?.id !== file.userId)) throw new NotFoundError(WHAT);
    // Once, not at every look while the file is being made.
    if (!ownerChecked && !(await ownerUsable(deps.db, file.userId))) throw new NotFoundError(WHAT);
    ownerChecked = true;
    if (file.status === "ready" && file.body) return { fileName: file.fileName, contentType: file.contentType, body: file.body };
    if (file.status === "failed" || now() - file.createdAt.getTime() > LOST_AFTER_MS) throw new FailureError(500, `${file.error ?? "The report could not be made."} Generate it again.`);
    if (now() >= until) throw new FailureError(202, "The report is not ready yet. Try the link again in a moment.");
    await sleep(deps.pollMs);
  }
}
