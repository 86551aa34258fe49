import { REPORT_FILE_TYPES, type Cell, type RenderedReport, type ReportColumn, type ReportDocument, type ReportSection, type ReportTable } from "../document.js";
import { cellText, numericColumns, summaryText } from "./cells.js";
import { HTML_STYLE } from "./html-style.js";

/*
 * The report as one standalone HTML5 page: no script, no external asset, every text escaped.
 * The document carries no language, so the page declares English; the headings are the user's.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function renderHtml(doc: ReportDocument): RenderedReport {
  const html = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${HTML_STYLE}</style>`,
    "</head>",
    "<body>",
    "<header>",
    `<h1>${escapeHtml(doc.title)}</h1>`,
    ...doc.subtitle.map((line) => `<p class="subtitle">${escapeHtml(line)}</p>`),
    "</header>",
    "<main>",
    ...doc.sections.map(section),
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
  return { body: Buffer.from(html, "utf8"), ...REPORT_FILE_TYPES.html };
}

function section(s: ReportSection): string {
  const summary = s.summary?.length
    ? [
        '<dl class="summary">',
        ...s.summary.map(([label, value, decimals]) => `<dt>${escapeHtml(label)}</dt><dd${typeof value === "number" ? ' class="num"' : ""}>${escapeHtml(summaryText(label, value, decimals))}</dd>`),
        "</dl>",
      ]
    : [];
  return ["<section>", `<h2>${escapeHtml(s.heading)}</h2>`, ...summary, ...s.tables.map(table), "</section>"].join("\n");
}

function table(t: ReportTable): string {
  if (t.rows.length === 0 && t.empty !== undefined) return `<p class="empty">${escapeHtml(t.empty)}</p>`;
  const numeric = numericColumns(t);
  const cls = (i: number, cell: Cell) => (numeric[i] || typeof cell === "number" ? ' class="num"' : "");
  const cells = (row: readonly Cell[]) => t.columns.map((col: ReportColumn, i) => `<td${cls(i, row[i] ?? null)}>${escapeHtml(cellText(row[i] ?? null, col))}</td>`).join("");
  return [
    "<table>",
    `<thead><tr>${t.columns.map((col, i) => `<th scope="col"${numeric[i] ? ' class="num"' : ""}>${escapeHtml(col.title)}</th>`).join("")}</tr></thead>`,
    "<tbody>",
    ...t.rows.map((row) => `<tr>${cells(row)}</tr>`),
    "</tbody>",
    ...(t.footer ? [`<tfoot><tr>${cells(t.footer)}</tr></tfoot>`] : []),
    "</table>",
  ].join("\n");
}
