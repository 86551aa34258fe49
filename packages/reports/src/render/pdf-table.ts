import type { Cell, ReportTable } from "../document.js";
import { cellText, numericColumns } from "./cells.js";
import { BOLD, REGULAR } from "./pdf-fonts.js";
import { GREY, RULE, contentWidth, ensureSpace } from "./pdf-layout.js";

/*
 * A report table drawn on PDF pages. Columns share the page width by what their content needs;
 * a cell's text wraps inside its column up to MAX_LINES lines (the first column's, which names
 * the row, up to KEY_MAX_LINES) and is cut with an ellipsis past that, so one long address cannot make a row taller than a page. A table that runs past the
 * page's end goes on on the next page under its heading row again.
 */

const FONT_SIZE = 8;
/** A table too wide for the page at FONT_SIZE is set smaller, down to this, before any word is broken. */
const MIN_FONT_SIZE = 5.5;
const PAD_X = 4;
const PAD_Y = 2.5;
const MAX_LINES = 3;
/** The first column names the row: it may take this many lines where the page is too narrow for its name in MAX_LINES. */
const KEY_MAX_LINES = 6;
/** Lines wrap between words, so a text needs more than its width over MAX_LINES to fit them. */
const KEY_WRAP_SLACK = 1.25;
/** No column takes more than this share of the width before the others have what they need. */
const MAX_SHARE = 0.4;
const HEADER_FILL = "#e6e6e6";
const ROW_RULE = "#d0d0d0";

interface Shown {
  text: string;
  right: boolean;
}

interface Layout {
  x: number;
  widths: number[];
  numeric: boolean[];
  fontSize: number;
  lineHeight: number;
}

export async function drawTable(pdf: PDFKit.PDFDocument, table: ReportTable, pause: () => Promise<void>): Promise<void> {
  pdf.fontSize(FONT_SIZE);
  if (table.rows.length === 0 && table.empty !== undefined) {
    ensureSpace(pdf, pdf.currentLineHeight(true));
    pdf.font(REGULAR).fillColor(GREY).text(table.empty, pdf.page.margins.left, pdf.y, { width: contentWidth(pdf) });
    pdf.fillColor("black");
    return;
  }
  const layout = await tableLayout(pdf, table, pause);
  pdf.fontSize(layout.fontSize);
  const header = table.columns.map((c, i) => ({ text: c.title, right: layout.numeric[i] ?? false }));
  const headerHeight = rowHeight(pdf, layout, header, BOLD);
  const firstHeight = table.rows[0] ? rowHeight(pdf, layout, shown(layout, table, table.rows[0]), REGULAR) : 0;
  ensureSpace(pdf, headerHeight + firstHeight);
  drawHeader(pdf, layout, header, headerHeight);
  for (const row of table.rows) {
    const cells = shown(layout, table, row);
    const height = rowHeight(pdf, layout, cells, REGULAR);
    if (ensureSpace(pdf, height)) drawHeader(pdf, layout, header, headerHeight);
    drawRow(pdf, layout, cells, height, REGULAR);
    line(pdf, layout, pdf.y, ROW_RULE, 0.5);
    await pause();
  }
  if (table.footer) {
    const cells = shown(layout, table, table.footer);
    const height = rowHeight(pdf, layout, cells, BOLD);
    if (ensureSpace(pdf, height)) drawHeader(pdf, layout, header, headerHeight);
    line(pdf, layout, pdf.y, RULE, 1);
    drawRow(pdf, layout, cells, height, BOLD);
  }
}

/**
 * Column widths that fill `available`: when everything fits, each column gets what it needs and
 * the rest is shared in proportion; when not, the columns needing less than an even share keep
 * what they need and the others split what is left evenly (a narrow number column is never
 * squeezed to make room for a long text). No column goes below its floor (its longest word, so
 * no word is broken: "Duration" read "d uratio n"); what a floor takes comes from the columns
 * above theirs, in proportion to how far above they are.
 */
export function columnWidths(needed: readonly number[], available: number, floors: readonly number[] = []): number[] {
  const total = needed.reduce((a, b) => a + b, 0);
  if (total <= available) return needed.map((n) => (total > 0 ? n + ((available - total) * n) / total : available / needed.length));
  const widths: (number | undefined)[] = needed.map(() => undefined);
  let left = available;
  let open = needed.length;
  for (let settled = true; settled && open > 0; ) {
    settled = false;
    const share = left / open;
    needed.forEach((n, i) => {
      if (widths[i] === undefined && n <= share) {
        widths[i] = n;
        left -= n;
        open -= 1;
        settled = true;
      }
    });
  }
  const shared = widths.map((w) => w ?? left / open);
  const floor = (i: number) => Math.min(floors[i] ?? 0, needed[i]!);
  const short = shared.reduce((sum, w, i) => sum + Math.max(0, floor(i) - w), 0);
  if (short === 0) return shared;
  const slack = shared.reduce((sum, w, i) => sum + Math.max(0, w - floor(i)), 0);
  const take = Math.min(1, short / slack);
  return shared.map((w, i) => (w < floor(i) ? floor(i) : w - (w - floor(i)) * take));
}

/**
 * The widest word of a text, in the current font, with the space after it: pdfkit measures a
 * word with its trailing space when it wraps, and breaks inside a word that does not fit so.
 */
function widestWord(pdf: PDFKit.PDFDocument, text: string, whole: number): number {
  if (!/\s/.test(text)) return whole;
  let widest = 0;
  for (const word of text.split(/\s+/)) widest = Math.max(widest, pdf.widthOfString(`${word} `));
  return widest;
}

/**
 * How the table's columns share the page: each as wide as its widest text, measured at
 * FONT_SIZE, never narrower than its widest word. When the widest words alone are wider than the
 * page (a merged report's many columns on a portrait page), the table is set in a smaller font,
 * down to MIN_FONT_SIZE, so dates and headings wrap between words, not inside them.
 */
async function tableLayout(pdf: PDFKit.PDFDocument, table: ReportTable, pause: () => Promise<void>): Promise<Layout> {
  const available = contentWidth(pdf);
  const pad = 2 * PAD_X + 1;
  pdf.fontSize(FONT_SIZE);
  const full: number[] = [];
  const words: number[] = [];
  const measure = (i: number, text: string) => {
    const whole = pdf.widthOfString(text);
    full[i] = Math.max(full[i] ?? 0, whole);
    words[i] = Math.max(words[i] ?? 0, widestWord(pdf, text, whole));
  };
  for (const [i, column] of table.columns.entries()) {
    pdf.font(BOLD);
    measure(i, column.title);
    pdf.font(REGULAR);
    for (const row of table.rows) {
      measure(i, cellText(row[i] ?? null, column));
      await pause();
    }
    if (table.footer) {
      pdf.font(BOLD);
      measure(i, cellText(table.footer[i] ?? null, column));
    }
  }
  const n = table.columns.length;
  // The first column names the row (a merged report's device): as wide as its longest text
  // needs to fit its lines, with room for uneven breaks, rather than cut like a long address;
  // the table is set smaller for it as for a word.
  if (n > 0) words[0] = Math.max(words[0]!, (full[0]! * KEY_WRAP_SLACK) / MAX_LINES);
  const wordsWidth = words.reduce((a, b) => a + b, 0);
  const scale = wordsWidth + n * pad <= available ? 1 : Math.max(MIN_FONT_SIZE / FONT_SIZE, (available - n * pad) / wordsWidth);
  const cap = available * MAX_SHARE;
  // A little over the measured width: text set exactly as wide as its column may still wrap.
  const needed = full.map((w) => Math.min(w * scale + pad + 0.5, cap));
  const floors = words.map((w) => Math.min(w * scale + pad + 0.5, cap));
  // Only from room the other columns' floors leave, so the table never runs past the page.
  if (n > 0) floors[0] = Math.min(floors[0]!, Math.max(0, available - floors.slice(1).reduce((a, b) => a + b, 0)));
  pdf.font(REGULAR).fontSize(FONT_SIZE * scale);
  return { x: pdf.page.margins.left, widths: columnWidths(needed, available, floors), numeric: numericColumns(table), fontSize: FONT_SIZE * scale, lineHeight: pdf.currentLineHeight(true) };
}

/** A row's cells as drawn: numbers, and everything in a column of numbers, to the right. */
function shown(layout: Layout, table: ReportTable, row: readonly Cell[]): Shown[] {
  return table.columns.map((column, i) => {
    const cell = row[i] ?? null;
    return { text: cellText(cell, column), right: typeof cell === "number" || (layout.numeric[i] ?? false) };
  });
}

function rowHeight(pdf: PDFKit.PDFDocument, layout: Layout, cells: readonly Shown[], font: string): number {
  pdf.font(font);
  const lines = cells.map(({ text }, i) => (text === "" ? 1 : Math.min(i === 0 ? KEY_MAX_LINES : MAX_LINES, Math.round(pdf.heightOfString(text, { width: textWidth(layout, i) }) / layout.lineHeight))));
  return Math.max(1, ...lines) * layout.lineHeight + 2 * PAD_Y;
}

function drawHeader(pdf: PDFKit.PDFDocument, layout: Layout, cells: readonly Shown[], height: number): void {
  const width = layout.widths.reduce((a, b) => a + b, 0);
  pdf.rect(layout.x, pdf.y, width, height).fill(HEADER_FILL);
  pdf.fillColor("black");
  drawRow(pdf, layout, cells, height, BOLD);
  line(pdf, layout, pdf.y, RULE, 0.8);
}

/** Draws one row at the cursor and moves the cursor under it. */
function drawRow(pdf: PDFKit.PDFDocument, layout: Layout, cells: readonly Shown[], height: number, font: string): void {
  const top = pdf.y;
  pdf.font(font);
  let x = layout.x;
  cells.forEach(({ text, right }, i) => {
    const width = layout.widths[i] ?? 0;
    if (text !== "") {
      pdf.text(text, x + PAD_X, top + PAD_Y, {
        width: textWidth(layout, i),
        height: height - 2 * PAD_Y,
        ellipsis: true,
        align: right ? "right" : "left",
      });
    }
    x += width;
  });
  pdf.x = layout.x;
  pdf.y = top + height;
}

function textWidth(layout: Layout, i: number): number {
  return Math.max(1, (layout.widths[i] ?? 0) - 2 * PAD_X);
}

function line(pdf: PDFKit.PDFDocument, layout: Layout, y: number, color: string, weight: number): void {
  const width = layout.widths.reduce((a, b) => a + b, 0);
  pdf.save().moveTo(layout.x, y).lineTo(layout.x + width, y).lineWidth(weight).strokeColor(color).stroke().restore();
}
