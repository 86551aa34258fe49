import type { Cell, ReportColumn, ReportTable } from "../document.js";

/** One column of a table: its heading, its cell for each row, and optionally its total. */
export interface Field<T> {
  column: ReportColumn;
  cell(item: T): Cell;
  /** The footer's cell over all the rows. */
  total?(items: readonly T[]): Cell;
}

/**
 * A table laid out column by column, so that an optional column (fuel, say), its cells and
 * its total cannot fall out of step as they could in parallel arrays. A table with any total
 * gets a footer, "Total" in its first cell unless that column has a total of its own; a table
 * without rows gets none, its `empty` text standing in for it.
 */
export function fieldTable<T>(fields: readonly Field<T>[], items: readonly T[], empty: string): ReportTable {
  const table: ReportTable = { columns: fields.map((f) => f.column), rows: items.map((item) => fields.map((f) => f.cell(item))), empty };
  if (items.length === 0 || !fields.some((f) => f.total)) return table;
  return { ...table, footer: fields.map((f, i) => (f.total ? f.total(items) : i === 0 ? "Total" : null)) };
}

/** The sum of a number over the items, for a footer. */
export const sumOf = <T>(items: readonly T[], value: (item: T) => number): number => items.reduce((s, item) => s + value(item), 0);

/** The largest of a number over the items (0 for none), for a footer. */
export const maxOf = <T>(items: readonly T[], value: (item: T) => number): number => items.reduce((m, item) => Math.max(m, value(item)), 0);
