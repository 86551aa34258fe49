import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/*
 * The PDF tests read the PDF the way a person's viewer would, through poppler's command-line
 * tools. Without them those tests fail, not skip: a PDF nobody looked at is not tested.
 */

const TOOLS = ["pdftotext", "pdfinfo", "pdftoppm"] as const;

export function missingPopplerTools(): string[] {
  return TOOLS.filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
}

export function requirePoppler(): void {
  const missing = missingPopplerTools();
  if (missing.length > 0) {
    throw new Error(`${missing.join(", ")} not found: install poppler-utils (apt-get install -y poppler-utils) to run the PDF tests`);
  }
}

/** Writes the PDF where poppler can read it; every helper below goes through here, so each fails clearly without poppler. */
function saved(pdf: Buffer): string {
  requirePoppler();
  const path = join(mkdtempSync(join(tmpdir(), "report-pdf-")), "report.pdf");
  writeFileSync(path, pdf);
  return path;
}

/** The text of one page (1-based), as pdftotext lays it out. */
export function pageText(pdf: Buffer, page: number): string {
  return execFileSync("pdftotext", ["-layout", "-f", String(page), "-l", String(page), saved(pdf), "-"], { encoding: "utf8" });
}

export interface PdfInfo {
  pages: number;
  /** Page size in points. */
  width: number;
  height: number;
}

export function pdfInfo(pdf: Buffer): PdfInfo {
  const out = execFileSync("pdfinfo", [saved(pdf)], { encoding: "utf8" });
  const pages = /^Pages:\s+(\d+)/m.exec(out);
  const size = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(out);
  if (!pages || !size) throw new Error(`pdfinfo said something unexpected:\n${out}`);
  return { pages: Number(pages[1]), width: Number(size[1]), height: Number(size[2]) };
}

/** Page 1 rendered in grey at 50 dpi: its size and the share of its pixels that are not white. */
export function firstPageInk(pdf: Buffer): { width: number; height: number; inked: number } {
  const pgm = execFileSync("pdftoppm", ["-gray", "-r", "50", "-f", "1", "-l", "1", saved(pdf)]);
  const { width, height, pixels } = parsePgm(pgm);
  let inked = 0;
  for (const p of pixels) if (p < 200) inked++;
  return { width, height, inked: inked / pixels.length };
}

/** A binary PGM (P5, 8 bits): "P5 <width> <height> <maxval>" and one byte per pixel. */
function parsePgm(data: Buffer): { width: number; height: number; pixels: Buffer } {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 64).toString("latin1"));
  if (!header || header[3] !== "255") throw new Error("pdftoppm did not write an 8-bit PGM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = data.subarray(header[0].length, header[0].length + width * height);
  if (pixels.length !== width * height) throw new Error("PGM shorter than its size");
  return { width, height, pixels };
}
