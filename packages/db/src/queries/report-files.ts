import { randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Db } from "../client.js";
import { reportFiles, type ReportFileStatus } from "../schema/report-files.js";
import { tokenHash } from "./password-resets.js";

export interface NewReportFile {
  userId: number;
  fileName: string;
  contentType: string;
  /** How long the link works. */
  ttlMs: number;
}

/** A pending report file and the token of its link (only the token's SHA-256 is stored). */
export async function createReportFile(db: Db, f: NewReportFile, now = new Date()): Promise<{ id: number; token: string }> {
  const token = randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(reportFiles)
    .values({ userId: f.userId, fileName: f.fileName, contentType: f.contentType, tokenHash: tokenHash(token), expiresAt: new Date(now.getTime() + f.ttlMs) })
    .returning({ id: reportFiles.id });
  return { id: row!.id, token };
}

/** The report's bytes: it is ready. */
export async function completeReportFile(db: Db, id: number, body: Buffer): Promise<void> {
  await db.update(reportFiles).set({ status: "ready", body, updatedAt: new Date() }).where(eq(reportFiles.id, id));
}

/** It could not be made; `error` is shown to its user, so it names no secret. */
export async function failReportFile(db: Db, id: number, error: string): Promise<void> {
  await db.update(reportFiles).set({ status: "failed", error, updatedAt: new Date() }).where(eq(reportFiles.id, id));
}

export interface FoundReportFile {
  userId: number;
  fileName: string;
  contentType: string;
  status: ReportFileStatus;
  body: Buffer | null;
  error: string | null;
  /** When it was asked for: a pending one much older than a report takes was lost with its instance. */
  createdAt: Date;
}

/** The unexpired report file a link's token names, or undefined (a wrong or expired token alike). */
export async function findReportFile(db: Db, token: string, now = new Date()): Promise<FoundReportFile | undefined> {
  const [row] = await db
    .select({
      userId: reportFiles.userId,
      fileName: reportFiles.fileName,
      contentType: reportFiles.contentType,
      status: reportFiles.status,
      body: reportFiles.body,
      error: reportFiles.error,
      createdAt: reportFiles.createdAt,
    })
    .from(reportFiles)
    .where(and(eq(reportFiles.tokenHash, tokenHash(token)), gt(reportFiles.expiresAt, now)));
  return row;
}

/** Deletes expired report files; how many. */
export async function pruneReportFiles(db: Db, now = new Date()): Promise<number> {
  const gone = await db.delete(reportFiles).where(lte(reportFiles.expiresAt, now)).returning({ id: reportFiles.id });
  return gone.length;
}
