import { isDuration, shownNumber, type Cell, type ReportColumn, type ReportTable } from "../document.js";

/** A cell as the text formats show it: a number with its column's decimals, a duration's text, nothing for null. */
export function cellText(cell: Cell, column: ReportColumn): string {
  if (cell === null) return "";
  if (isDuration(cell)) return cell.text;
  return typeof cell === "number" ? shownNumber(cell, column) : cell;
}

/** A summary value has no column of its own; it is shown as a column with its decimals would be. */
export function summaryText(label: string, value: Cell, decimals?: number): string {
  return cellText(value, summaryColumn(label, decimals));
}

/** The column a summary value is shown as: its label, and its decimals when it has them. */
export const summaryColumn = (label: string, decimals?: number): ReportColumn => (decimals === undefined ? { title: label } : { title: label, decimals });

/**
 * Which columns hold numbers, so their headings line up with their right-aligned cells. A column
 * counts as numeric when every body cell that holds something is a number; the footer is left out
 * (its first cell is usually a "Total" label) unless there is no body to look at.
 */
export function numericColumns(table: ReportTable): boolean[] {
  const rows = table.rows.length > 0 ? table.rows : table.footer ? [table.footer] : [];
  return table.columns.map((_, i) => {
    const filled = rows.map((row) => row[i] ?? null).filter((c) => c !== null && c !== "");
    return filled.length > 0 && filled.every((c) => typeof c === "number");
  });
}
