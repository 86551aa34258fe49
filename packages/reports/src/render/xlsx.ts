import ExcelJS from "exceljs";
import { isDuration, REPORT_FILE_TYPES, type Cell, type RenderedReport, type ReportColumn, type ReportDocument, type ReportSection, type ReportTable } from "../document.js";
import { cellText, summaryColumn } from "./cells.js";
import { pacer } from "./pace.js";
import { sheetNames } from "./sheet-names.js";

/*
 * The vendor calls this format "xls"; it is written as Office Open XML (.xlsx), which every
 * spreadsheet program of the last fifteen years opens and which, unlike the binary .xls, has a
 * maintained writer.
 *
 * One worksheet per section: a section is one device (or geofence, driver), its tables share
 * their columns with no other section's, and a sheet of its own gives each its own column widths,
 * a tab to find it by, and rows that can be sorted or filtered without mixing two devices. Each
 * sheet repeats the title and subtitle so it reads on its own when printed or copied out.
 */

const DAY_MS = 86_400_000;
/** Elapsed hours (not wrapped at 24), minutes and seconds. */
export const DURATION_FORMAT = "[h]:mm:ss";
const MIN_WIDTH = 6;
const MAX_WIDTH = 60;
const HEADER_FILL: ExcelJS.Fill = { type: "pattern", pattern: "solid", fgColor: { argb: "FFE8E8E8" } };
const RULE: Partial<ExcelJS.Border> = { style: "thin", color: { argb: "FF1A1A1A" } };

export async function renderXlsx(doc: ReportDocument): Promise<RenderedReport> {
  const workbook = new ExcelJS.Workbook();
  workbook.title = doc.title;
  // A workbook without a sheet is one Excel will not open, so a report with no section still gets one.
  const sections: readonly ReportSection[] = doc.sections.length > 0 ? doc.sections : [{ heading: doc.title, tables: [] }];
  const names = sheetNames(sections.map((s) => s.heading));
  const pause = pacer();
  for (const [i, section] of sections.entries()) await writeSheet(workbook.addWorksheet(names[i]), doc, section, pause);
  const bytes = await workbook.xlsx.writeBuffer();
  return { body: Buffer.from(bytes as ArrayBuffer), ...REPORT_FILE_TYPES.xls };
}

const CLOCK_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * A time as the reports write it on the user's clock ("2026-03-10 08:05:10", or a date) as a
 * spreadsheet date, so it sorts, filters and subtracts as one, shown as it was written. A
 * spreadsheet's dates have no timezone: the clock's wall time is written as it reads (as UTC,
 * which is how the writer counts dates). Undefined for any other text.
 */
export function clockTime(text: string): { date: Date; format: string } | undefined {
  const m = CLOCK_TIME.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, sec));
  // Only what reads back as the same text: "2026-02-30" stays text.
  if (date.toISOString().slice(0, 19).replace("T", " ") !== `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? "00"}:${m[5] ?? "00"}:${m[6] ?? "00"}`) return undefined;
  return { date, format: m[4] === undefined ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm:ss" };
}

/** A number format showing what shownNumber shows: the column's decimals, or 0 for integers and 2 otherwise. */
export function numberFormat(value: number, column: ReportColumn): string {
  const decimals = column.decimals ?? (Number.isInteger(value) ? 0 : 2);
  return decimals > 0 ? `0.${"0".repeat(decimals)}` : "0";
}

/** Writes rows top to bottom and remembers how wide each column's content is. */
class SheetWriter {
  private readonly widths: number[] = [];
  constructor(readonly sheet: ExcelJS.Worksheet) {}

  /** A line of text that may run over the empty cells beside it, so it does not widen column A. */
  line(text: string, font: Partial<ExcelJS.Font>): void {
    this.sheet.addRow([text]).getCell(1).font = font;
  }

  blank(): void {
    this.sheet.addRow([]);
  }

  /**
   * A row of cells, numbers kept as numbers with their format and durations as times (days, as
   * spreadsheets count time, shown as hours:minutes:seconds past 24 hours), each cell's shown
   * text measured.
   */
  cells(values: readonly Cell[], columns: readonly ReportColumn[]): ExcelJS.Row {
    const times = values.map((v) => (typeof v === "string" ? clockTime(v) : undefined));
    const row = this.sheet.addRow(values.map((v, i) => times[i]?.date ?? (isDuration(v) ? v.durationMs / DAY_MS : v)));
    values.forEach((value, i) => {
      const column = columns[i] ?? { title: "" };
      const time = times[i];
      if (time) row.getCell(i + 1).numFmt = time.format;
      else if (typeof value === "number") row.getCell(i + 1).numFmt = numberFormat(value, column);
      else if (isDuration(value)) row.getCell(i + 1).numFmt = DURATION_FORMAT;
      this.measure(i, cellText(value, column));
    });
    return row;
  }

  measure(index: number, text: string): void {
    const longest = Math.max(...text.split("\n").map((l) => l.length));
    this.widths[index] = Math.max(this.widths[index] ?? 0, longest);
  }

  sizeColumns(): void {
    this.widths.forEach((w, i) => {
      this.sheet.getColumn(i + 1).width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w + 2));
    });
  }
}

async function writeSheet(sheet: ExcelJS.Worksheet, doc: ReportDocument, section: ReportSection, pause: () => Promise<void>): Promise<void> {
  sheet.pageSetup = { paperSize: 9, orientation: "portrait", fitToPage: true, fitToWidth: 1, fitToHeight: 0 };
  const w = new SheetWriter(sheet);
  w.line(doc.title, { bold: true, size: 14 });
  for (const line of doc.subtitle) w.line(line, { color: { argb: "FF555555" } });
  w.blank();
  w.line(section.heading, { bold: true, size: 12 });
  for (const [label, value, decimals] of section.summary ?? []) {
    const row = w.cells([label, value], [{ title: "" }, summaryColumn(label, decimals)]);
    row.getCell(1).font = { bold: true };
  }
  for (const table of section.tables) {
    w.blank();
    await writeTable(w, table, pause);
  }
  w.sizeColumns();
}

async function writeTable(w: SheetWriter, table: ReportTable, pause: () => Promise<void>): Promise<void> {
  if (table.rows.length === 0 && table.empty !== undefined) {
    w.line(table.empty, { italic: true, color: { argb: "FF555555" } });
    return;
  }
  const n = table.columns.length;
  const header = w.cells(
    table.columns.map((c) => c.title),
    table.columns,
  );
  style(header, n, { font: { bold: true }, fill: HEADER_FILL, border: { bottom: RULE } });
  for (const row of table.rows) {
    w.cells(row, table.columns);
    await pause();
  }
  if (table.footer) style(w.cells(table.footer, table.columns), n, { font: { bold: true }, border: { top: RULE } });
}

/** Styles a row's first n cells, empty ones too, so a rule runs under or over the whole table. */
function style(row: ExcelJS.Row, n: number, s: Partial<ExcelJS.Style>): void {
  for (let i = 1; i <= n; i++) Object.assign(row.getCell(i), s);
}
