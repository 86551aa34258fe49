/*
 * A report as every output format takes it: a title, lines under it, and a section per device
 * (or per geofence, driver...), each with label/value pairs and tables. The report types build
 * one; html, xls and pdf render the same one, so the formats never disagree on a number.
 */

/**
 * A duration: shown as its text ("1h 24min") where text is all a format has, and kept as a
 * time in a spreadsheet, which can sum it.
 */
export interface DurationCell {
  durationMs: number;
  text: string;
}

/**
 * A table cell. A number stays a number to the end (a spreadsheet can sum it); its unit is in
 * the column's heading. So does a duration. Text is shown as it is (times, names, addresses).
 */
export type Cell = string | number | null | DurationCell;

export const isDuration = (cell: Cell): cell is DurationCell => typeof cell === "object" && cell !== null;

export interface ReportColumn {
  /** The heading, in the user's language, with the unit when the cells are numbers ("Distance (km)"). */
  title: string;
  /** How many decimals a number is shown with (default 0 for integers, 2 otherwise). */
  decimals?: number;
}

export interface ReportTable {
  columns: readonly ReportColumn[];
  rows: readonly (readonly Cell[])[];
  /** A last row set apart: the table's totals. */
  footer?: readonly Cell[];
  /** Shown instead of an empty table. */
  empty?: string;
}

export interface ReportSection {
  /** What the section is about: a device's name, a geofence's, a driver's. */
  heading: string;
  /**
   * Label/value pairs shown above the tables (totals, the device's plate, the period), a number
   * with its decimals when given (else 0 for an integer and 2 otherwise, as a column's).
   */
  summary?: readonly (readonly [label: string, value: Cell, decimals?: number])[];
  tables: readonly ReportTable[];
}

export interface ReportDocument {
  title: string;
  /** Lines under the title: the report type, the period, when it was made. */
  subtitle: readonly string[];
  sections: readonly ReportSection[];
}

/** The vendor's output formats: a standalone page, a spreadsheet, and a PDF upright or on its side. */
export const REPORT_FORMATS = ["html", "xls", "pdf", "pdf_land"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A rendered report: its bytes and how it is served. */
export interface RenderedReport {
  body: Buffer;
  contentType: string;
  /** The file's extension, without the dot. */
  extension: string;
}

/** How each format's file is served: what the download says it is, and its file name's extension. */
export const REPORT_FILE_TYPES: Readonly<Record<ReportFormat, { contentType: string; extension: string }>> = {
  html: { contentType: "text/html; charset=utf-8", extension: "html" },
  // The vendor calls it xls; the file is Office Open XML, which every spreadsheet opens.
  xls: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", extension: "xlsx" },
  pdf: { contentType: "application/pdf", extension: "pdf" },
  pdf_land: { contentType: "application/pdf", extension: "pdf" },
};

/** A number as a report shows it: the column's decimals, or 0 for integers and 2 otherwise. */
export function shownNumber(value: number, column: ReportColumn): string {
  const decimals = column.decimals ?? (Number.isInteger(value) ? 0 : 2);
  return value.toFixed(decimals);
}
