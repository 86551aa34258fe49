import type { Cell, ReportDocument } from "../src/document.js";

/*
 * A report shaped like a real one, with what tends to break renderers: decimals, a footer, an
 * empty table, a row with missing cells, text that must be escaped, letters outside Latin-1, a
 * heading too long and too odd for a sheet name, and enough rows to fill several PDF pages.
 */

export const TRIP_ROWS = 120;

export const tripColumns = [
  { title: "Start" },
  { title: "From" },
  { title: "To" },
  { title: "Distance (km)", decimals: 2 },
  { title: "Top speed (km/h)", decimals: 0 },
  { title: "Fuel (l)", decimals: 1 },
] as const;

/** Row i of the trips table; distances have more decimals than the column shows. */
export function tripRow(i: number): Cell[] {
  const hh = String(Math.floor(i / 6) % 24).padStart(2, "0");
  const mm = String((i % 6) * 10).padStart(2, "0");
  return [`2026-03-${String(1 + Math.floor(i / 24)).padStart(2, "0")} ${hh}:${mm}`, i % 2 === 0 ? "Kaunas–Vilnius, ėčš" : "Москва, Тверская ул. 7", `Stop ${i + 1}`, 10 + i * 1.23456, 80 + (i % 40), 3.25 + i / 8];
}

const tripRows = Array.from({ length: TRIP_ROWS }, (_, i) => tripRow(i));

export const tripTotals = {
  distance: tripRows.reduce((sum, r) => sum + (r[3] as number), 0),
  fuel: tripRows.reduce((sum, r) => sum + (r[5] as number), 0),
};

/** Too long for three lines of a table cell even on a landscape page: it must be cut. */
export const LONG_ADDRESS = `Vilniaus g. 1234, Ąžuolų rajonas, ${"an address that goes on and on, ".repeat(12)}THE END`;

export const sampleDocument: ReportDocument = {
  title: "Trips & stops <general> report",
  subtitle: ["Period: 2026-03-01 00:00 – 2026-03-06 23:59", "Generated: 2026-03-07 08:00 (Europe/Vilnius)"],
  sections: [
    {
      heading: "Truck LT-001 [Kaunas–Vilnius]: line *7*/night shift",
      summary: [
        ["Plate", "ABC 123 \"Ėglė's\""],
        ["Distance (km)", 1234.5],
        ["Trips", TRIP_ROWS],
      ],
      tables: [
        { columns: tripColumns, rows: tripRows, footer: ["Total", null, null, tripTotals.distance, null, tripTotals.fuel] },
        { columns: [{ title: "Stop" }, { title: "Duration" }], rows: [], empty: "No stops in this period" },
      ],
    },
    {
      heading: "Москва депо",
      summary: [["Driver", "Иван Петров"]],
      tables: [
        {
          columns: [{ title: "Time" }, { title: "Address" }, { title: "Speed (km/h)" }, { title: "Note" }],
          rows: [
            ["08:00", "<b>Bold & \"quoted\"</b>", 0, null],
            ["08:15", LONG_ADDRESS, 42.5, "ok"],
            ["08:30", "Ярославское шоссе", 7, "Ψ Ω"],
          ],
        },
      ],
    },
  ],
};
