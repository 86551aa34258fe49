import PDFDocument from "pdfkit";
import { REPORT_FILE_TYPES, type Cell, type RenderedReport, type ReportDocument, type ReportSection } from "../document.js";
import { summaryText } from "./cells.js";
import { BOLD, REGULAR, registerReportFonts } from "./pdf-fonts.js";
import { FOOTER_ROOM, GREY, MARGIN, RULE, contentWidth, ensureSpace } from "./pdf-layout.js";
import { drawTable } from "./pdf-table.js";
import { pacer } from "./pace.js";

/*
 * The report as an A4 PDF, upright or on its side. Pages are kept in memory until the end
 * (bufferPages) because "Page 2 of 5" needs the count of pages, known only once all are laid out.
 */

export type PdfOrientation = "portrait" | "landscape";

/** Keep a section's heading with at least this much of what follows it. */
const KEEP_WITH_HEADING = 60;

// eslint-disable-next-line no-control-regex -- replacing control characters is the point
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Text as the PDF draws it: a tab or another control character, which the font draws as a missing-glyph box, is a space; line breaks stay. */
const printable = (text: string) => text.replace(CONTROLS, " ");
const printableCell = (cell: Cell): Cell => (typeof cell === "string" ? printable(cell) : cell);

/** The document with every text printable (a tab in a device's name showed as a box). */
function printableDocument(doc: ReportDocument): ReportDocument {
  return {
    title: printable(doc.title),
    subtitle: doc.subtitle.map(printable),
    sections: doc.sections.map((section) => ({
      heading: printable(section.heading),
      ...(section.summary ? { summary: section.summary.map(([label, value, decimals]) => [printable(label), printableCell(value), decimals] as const) } : {}),
      tables: section.tables.map((table) => ({
        ...table,
        columns: table.columns.map((column) => ({ ...column, title: printable(column.title) })),
        rows: table.rows.map((row) => row.map(printableCell)),
        ...(table.footer ? { footer: table.footer.map(printableCell) } : {}),
        ...(table.empty !== undefined ? { empty: printable(table.empty) } : {}),
      })),
    })),
  };
}

export async function renderPdf(shown: ReportDocument, orientation: PdfOrientation): Promise<RenderedReport> {
  const doc = printableDocument(shown);
  const pdf = new PDFDocument({
    size: "A4",
    layout: orientation,
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_ROOM },
    bufferPages: true,
    info: { Title: doc.title, Creator: "Fleet reports" },
  });
  const body = collect(pdf);
  registerReportFonts(pdf);
  drawTitle(pdf, doc);
  const pause = pacer();
  for (const section of doc.sections) await drawSection(pdf, section, pause);
  drawPageFooters(pdf, doc.title);
  pdf.end();
  return { body: await body, ...REPORT_FILE_TYPES.pdf };
}

function collect(pdf: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
}

function drawTitle(pdf: PDFKit.PDFDocument, doc: ReportDocument): void {
  const width = contentWidth(pdf);
  pdf.font(BOLD).fontSize(16).fillColor("black").text(doc.title, MARGIN, MARGIN, { width });
  pdf.font(REGULAR).fontSize(9.5).fillColor(GREY);
  for (const line of doc.subtitle) pdf.text(line, { width });
  pdf.fillColor("black").moveDown(1);
}

async function drawSection(pdf: PDFKit.PDFDocument, section: ReportSection, pause: () => Promise<void>): Promise<void> {
  const width = contentWidth(pdf);
  pdf.font(BOLD).fontSize(12.5);
  ensureSpace(pdf, pdf.heightOfString(section.heading, { width }) + KEEP_WITH_HEADING);
  pdf.text(section.heading, MARGIN, pdf.y, { width });
  const y = pdf.y + 1;
  pdf.save().moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(1).strokeColor(RULE).stroke().restore();
  pdf.y = y + 5;
  drawSummary(pdf, section);
  for (const table of section.tables) {
    await drawTable(pdf, table, pause);
    pdf.y += 10;
  }
  pdf.y += 8;
}

/** Label/value pairs as two columns, the labels as wide as the widest (up to a third of the page). */
function drawSummary(pdf: PDFKit.PDFDocument, section: ReportSection): void {
  const pairs = section.summary ?? [];
  if (pairs.length === 0) return;
  const width = contentWidth(pdf);
  pdf.fontSize(9);
  const labelWidth = Math.min(width / 3, Math.max(...pairs.map(([label]) => pdf.font(BOLD).widthOfString(label))) + 12);
  for (const [label, value, decimals] of pairs) {
    const text = summaryText(label, value, decimals);
    const height = Math.max(pdf.font(BOLD).heightOfString(label, { width: labelWidth - 12 }), pdf.font(REGULAR).heightOfString(text, { width: width - labelWidth }));
    ensureSpace(pdf, height);
    const top = pdf.y;
    pdf.font(BOLD).text(label, MARGIN, top, { width: labelWidth - 12 });
    pdf.font(REGULAR).text(text, MARGIN + labelWidth, top, { width: width - labelWidth });
    pdf.y = top + height;
  }
  pdf.y += 8;
}

/** "Page 2 of 5" on every page, with the report's title beside it for a printed page that strays. */
function drawPageFooters(pdf: PDFKit.PDFDocument, title: string): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    pdf.switchToPage(i);
    // Text below the bottom margin makes pdfkit start a new page; the footer lives there on purpose.
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    const width = contentWidth(pdf);
    const y = pdf.page.height - MARGIN - 10;
    const pageLabel = `Page ${i - start + 1} of ${count}`;
    pdf.font(REGULAR).fontSize(8).fillColor(GREY);
    const labelWidth = pdf.widthOfString(pageLabel);
    pdf.text(title, MARGIN, y, { width: width - labelWidth - 20, height: pdf.currentLineHeight(), ellipsis: true, lineBreak: false });
    pdf.text(pageLabel, MARGIN + width - labelWidth, y, { width: labelWidth, lineBreak: false });
    pdf.page.margins.bottom = bottom;
  }
  pdf.fillColor("black");
}
