import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { LONG_ADDRESS, TRIP_ROWS, sampleDocument, tripColumns, tripRow, tripTotals } from "../../test/sample-document.js";
import type { RenderedReport } from "../document.js";
import { renderHtml } from "./html.js";
import { clockTime, renderXlsx } from "./xlsx.js";

let rendered: RenderedReport;
const book = new ExcelJS.Workbook();

beforeAll(async () => {
  rendered = await renderXlsx(sampleDocument);
  await book.xlsx.load(rendered.body as unknown as ExcelJS.Buffer);
});

function sheet(index: number): ExcelJS.Worksheet {
  const s = book.worksheets[index];
  if (!s) throw new Error(`no sheet ${index}`);
  return s;
}

/** The number of the first row whose first cell holds `text`. */
function rowStarting(s: ExcelJS.Worksheet, text: string): number {
  for (let r = 1; r <= s.rowCount; r++) if (s.getRow(r).getCell(1).value === text) return r;
  throw new Error(`no row starts with ${text}`);
}

const values = (s: ExcelJS.Worksheet, r: number, n: number) => Array.from({ length: n }, (_, i) => s.getRow(r).getCell(i + 1).value);

describe("renderXlsx", () => {
  it("is an Office Open XML workbook", () => {
    expect(rendered.contentType).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(rendered.extension).toBe("xlsx");
    expect(rendered.body.subarray(0, 2).toString("latin1")).toBe("PK");
  });

  it("has a sheet per section, named after its heading within Excel's rules", () => {
    expect(book.worksheets.map((s) => s.name)).toEqual(["Truck LT-001 Kaunas–Vilnius", "Москва депо"]);
  });

  it("opens each sheet with the title, the subtitle and the section's heading", () => {
    for (const i of [0, 1]) {
      expect(values(sheet(i), 1, 1)).toEqual([sampleDocument.title]);
      expect(sheet(i).getRow(1).getCell(1).font?.bold).toBe(true);
      expect(values(sheet(i), 2, 1)).toEqual([sampleDocument.subtitle[0]]);
      expect(values(sheet(i), 3, 1)).toEqual([sampleDocument.subtitle[1]]);
    }
    expect(rowStarting(sheet(0), "Truck LT-001 [Kaunas–Vilnius]: line *7*/night shift")).toBe(5);
    expect(rowStarting(sheet(1), "Москва депо")).toBe(5);
  });

  it("lists the summary as label and value, a number as a number", () => {
    const s = sheet(0);
    expect(values(s, rowStarting(s, "Plate"), 2)).toEqual(["Plate", "ABC 123 \"Ėglė's\""]);
    const distance = s.getRow(rowStarting(s, "Distance (km)")).getCell(2);
    expect(distance.value).toBe(1234.5);
    expect(distance.numFmt).toBe("0.00");
    expect(s.getRow(rowStarting(s, "Trips")).getCell(2).value).toBe(TRIP_ROWS);
  });

  it("writes the trips table under a bold heading row, numbers as the numbers given, formatted to the column's decimals", () => {
    const s = sheet(0);
    const head = rowStarting(s, "Start");
    expect(values(s, head, tripColumns.length)).toEqual(tripColumns.map((c) => c.title));
    expect(s.getRow(head).getCell(4).font?.bold).toBe(true);
    for (let i = 0; i < TRIP_ROWS; i++) {
      const row = s.getRow(head + 1 + i);
      expect(values(s, head + 1 + i, tripColumns.length)).toEqual(tripRow(i));
      expect([4, 5, 6].map((c) => row.getCell(c).numFmt)).toEqual(["0.00", "0", "0.0"]);
    }
    expect(typeof s.getRow(head + 2).getCell(4).value).toBe("number");
  });

  it("ends the table with its footer row in bold", () => {
    const s = sheet(0);
    const footer = rowStarting(s, "Total");
    expect(footer).toBe(rowStarting(s, "Start") + TRIP_ROWS + 1);
    expect(values(s, footer, tripColumns.length)).toEqual(["Total", null, null, tripTotals.distance, null, tripTotals.fuel]);
    expect(s.getRow(footer).getCell(1).font?.bold).toBe(true);
    expect(s.getRow(footer).getCell(4).font?.bold).toBe(true);
    expect(s.getRow(footer).getCell(4).numFmt).toBe("0.00");
  });

  it("writes an empty table's text instead of the table", () => {
    const s = sheet(0);
    expect(rowStarting(s, "No stops in this period")).toBeGreaterThan(rowStarting(s, "Total"));
    expect(() => rowStarting(s, "Stop")).toThrow();
  });

  it("keeps text as it is, a missing cell empty", () => {
    const s = sheet(1);
    const head = rowStarting(s, "Time");
    expect(values(s, head + 1, 4)).toEqual(["08:00", '<b>Bold & "quoted"</b>', 0, null]);
    expect(values(s, head + 2, 4)).toEqual(["08:15", LONG_ADDRESS, 42.5, "ok"]);
    expect(s.getRow(head + 2).getCell(3).numFmt).toBe("0.00");
    expect(s.getRow(head + 3).getCell(3).numFmt).toBe("0");
  });

  it("sizes each column to its content, within bounds", () => {
    const trips = sheet(0);
    expect(trips.getColumn(2).width).toBeGreaterThanOrEqual("Москва, Тверская ул. 7".length);
    expect(trips.getColumn(5).width).toBeGreaterThanOrEqual("Top speed (km/h)".length);
    expect(trips.getColumn(5).width).toBeLessThan(trips.getColumn(2).width ?? 0);
    expect(sheet(1).getColumn(2).width).toBe(60);
  });
});

describe("times in a spreadsheet", () => {
  it("writes the reports' times and dates as spreadsheet dates that read as written, other text as text", async () => {
    const doc = {
      title: "Drives",
      subtitle: ["2026-03-10 00:00:00 - 2026-03-10 23:59:59"],
      sections: [
        {
          heading: "Truck",
          tables: [{ columns: [{ title: "Start" }, { title: "Day" }, { title: "Note" }], rows: [["2026-03-10 08:05:10", "2026-03-10", "2026-02-30 08:00:00"]] }],
        },
      ],
    };
    const loaded = new ExcelJS.Workbook();
    await loaded.xlsx.load((await renderXlsx(doc)).body as unknown as ExcelJS.Buffer);
    const s = loaded.worksheets[0]!;
    const row = s.getRow(rowStarting(s, "Start") + 1);
    expect(row.getCell(1).value).toEqual(new Date(Date.UTC(2026, 2, 10, 8, 5, 10)));
    expect(row.getCell(1).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect(row.getCell(2).value).toEqual(new Date(Date.UTC(2026, 2, 10)));
    expect(row.getCell(2).numFmt).toBe("yyyy-mm-dd");
    // Not a day of the calendar: kept as the text it is. The period line stays a line of text.
    expect(row.getCell(3).value).toBe("2026-02-30 08:00:00");
    expect(s.getRow(2).getCell(1).value).toBe("2026-03-10 00:00:00 - 2026-03-10 23:59:59");
    expect(clockTime("Truck 2026-03-10 08:05:10")).toBeUndefined();
  });
});

describe("a summary's decimals", () => {
  it("shows an amount with the decimals it is given, whole or not, in every format", async () => {
    const doc = { title: "Fuel", subtitle: [], sections: [{ heading: "Truck", summary: [["Fuel filled (l)", 32, 2], ["Fuel stolen (l)", 17.7, 2], ["Fillings", 1, 0]] as const, tables: [] }] };
    const loaded = new ExcelJS.Workbook();
    await loaded.xlsx.load((await renderXlsx(doc)).body as unknown as ExcelJS.Buffer);
    const s = loaded.worksheets[0]!;
    expect(["Fuel filled (l)", "Fuel stolen (l)", "Fillings"].map((label) => s.getRow(rowStarting(s, label)).getCell(2).numFmt)).toEqual(["0.00", "0.00", "0"]);
    const html = (await renderHtml(doc)).body.toString("utf8");
    expect(html).toContain(">32.00<");
    expect(html).toContain(">17.70<");
    expect(html).toContain(">1<");
  });
});
