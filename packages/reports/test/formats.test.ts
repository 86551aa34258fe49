import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { renderReport } from "../src/render/index.js";
import { drivesAndStops } from "../src/types/drives-stops.js";
import { ctx, groups, heading, truck } from "../src/types/fixtures.js";
import { pageText } from "./poppler.js";

/*
 * One type's numbers, read back from every format the way a user reads them: the same track
 * (10 km at 60 km/h, a 600 s stop, 10 km at 120 km/h) gives the same rows in the page, the
 * spreadsheet and both PDFs.
 */

const EXCEL_DAY_0 = Date.UTC(1899, 11, 30);
const doc = drivesAndStops(heading("Drives and stops"), [truck()].map(groups), ctx());
/** The three rows as a user reads them: status, start, end, duration, distance, top and average speed. */
const ROWS = [
  ["Drive", "2026-01-05 08:00:00", "2026-01-05 08:10:10", "610s", "10.00", "60", "59"],
  ["Stop", "2026-01-05 08:10:10", "2026-01-05 08:20:10", "600s", "0.00", "0", "0"],
  ["Drive", "2026-01-05 08:20:10", "2026-01-05 08:25:10", "300s", "10.00", "120", "120"],
];
/** The same run of cells on one line, whatever spacing the format puts between them. */
const inOrder = (row: string[]) => new RegExp(row.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"));

describe("drives and stops, read back from each format", () => {
  it("html: each row's cells in order", async () => {
    const text = (await renderReport(doc, "html")).body.toString("utf8").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    for (const row of ROWS) expect(text).toMatch(inOrder(row));
  });

  it.each(["pdf", "pdf_land"] as const)("%s: each row's cells in order on its page, a time wrapped under its date where the column is narrow", async (format) => {
    const text = pageText((await renderReport(doc, format)).body, 1);
    for (const [status, start, end, ...rest] of ROWS) {
      const [startDay, startTime] = start!.split(" ");
      const [endDay, endTime] = end!.split(" ");
      // On one line: the status, each date (its time beside it, or on the line below), and the numbers.
      expect(text).toMatch(new RegExp(`${status}\\s+${startDay}(\\s+${startTime})?\\s+${endDay}(\\s+${endTime})?\\s+${rest.join("\\s+").replaceAll(".", "\\.")}`));
      expect(text).toContain(startTime);
      expect(text).toContain(endTime);
    }
  });

  it("xls: each row's cells, numbers as numbers and durations as times equal to the track's", async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await renderReport(doc, "xls")).body as unknown as ExcelJS.Buffer);
    const rows: unknown[][] = [];
    const durationFormats = new Set<string>();
    const timeFormats = new Set<string>();
    book.worksheets[0]!.eachRow((row) => {
      const values = (row.values as unknown[]).slice(1, 8);
      if (values[0] !== "Drive" && values[0] !== "Stop") return;
      durationFormats.add(row.getCell(4).numFmt);
      for (const c of [2, 3]) timeFormats.add(row.getCell(c).numFmt);
      // Times are spreadsheet dates, the clock's wall time as UTC. A duration is a time (days, as
      // spreadsheets count it), which ExcelJS reads back as a date from the spreadsheets' day 0:
      // here in seconds since then.
      const read = (v: unknown, i: number) =>
        v instanceof Date ? (i === 1 || i === 2 ? v.toISOString().slice(0, 19).replace("T", " ") : (v.getTime() - EXCEL_DAY_0) / 1000) : typeof v === "number" ? Math.round(v * 100) / 100 : v;
      rows.push(values.map(read));
    });
    expect(rows).toEqual([
      ["Drive", "2026-01-05 08:00:00", "2026-01-05 08:10:10", 610, 10, 60, 59],
      ["Stop", "2026-01-05 08:10:10", "2026-01-05 08:20:10", 600, 0, 0, 0],
      ["Drive", "2026-01-05 08:20:10", "2026-01-05 08:25:10", 300, 10, 120, 120],
    ]);
    expect([...durationFormats]).toEqual(["[h]:mm:ss"]);
    expect(timeFormats).toEqual(new Set(["yyyy-mm-dd hh:mm:ss"]));
  });
});
