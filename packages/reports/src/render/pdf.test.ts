import { describe, expect, it } from "vitest";
import { shownNumber } from "../document.js";
import type { RenderedReport, ReportDocument } from "../document.js";
import { firstPageInk, missingPopplerTools, pageText, pdfInfo } from "../../test/poppler.js";
import { TRIP_ROWS, sampleDocument, tripColumns, tripRow, tripTotals } from "../../test/sample-document.js";
import { renderPdf, type PdfOrientation } from "./pdf.js";

/*
 * The PDF read back as a person's viewer would show it: poppler's pdftotext for the words,
 * pdfinfo for the pages, pdftoppm for the picture. Without poppler these tests fail.
 */

const A4 = { short: 595.28, long: 841.89 };

it("has poppler's tools to read the PDF with (apt-get install poppler-utils)", () => {
  expect(missingPopplerTools()).toEqual([]);
});

describe.each(["portrait", "landscape"] as const)("renderPdf, %s", (orientation: PdfOrientation) => {
  // Rendered and read once for the tests below, on first use, so each test fails on its own when poppler is missing.
  let rendered: Promise<RenderedReport> | undefined;
  let read: Promise<{ pages: number; page: string[] }> | undefined;
  const rendering = () => (rendered ??= renderPdf(sampleDocument, orientation));
  const text = () =>
    (read ??= rendering().then(({ body }) => {
      const { pages } = pdfInfo(body);
      return { pages, page: Array.from({ length: pages }, (_, i) => pageText(body, i + 1)) };
    }));

  it("is an A4 PDF the right way up, several pages long", async () => {
    const rendered = await rendering();
    expect(rendered.contentType).toBe("application/pdf");
    expect(rendered.extension).toBe("pdf");
    const info = pdfInfo(rendered.body);
    const [width, height] = orientation === "portrait" ? [A4.short, A4.long] : [A4.long, A4.short];
    expect(info.width).toBeCloseTo(width, 1);
    expect(info.height).toBeCloseTo(height, 1);
    expect(info.pages).toBeGreaterThanOrEqual(3);
  });

  it("opens with the title, the subtitle, the first section's heading and summary", async () => {
    const { page } = await text();
    const first = page[0] ?? "";
    expect(first).toContain("Trips & stops <general> report");
    for (const line of sampleDocument.subtitle) expect(first).toContain(line);
    expect(first).toContain("Truck LT-001 [Kaunas–Vilnius]: line *7*/night shift");
    expect(first).toMatch(/Plate\s+ABC 123 "Ėglė's"/);
    expect(first).toMatch(/Distance \(km\)\s+1234\.50/);
  });

  it("draws the trips table with its letters outside Latin-1 and its numbers as shown", async () => {
    const { page } = await text();
    const first = page[0] ?? "";
    expect(first).toMatch(/Start\s+From\s+To\s+Distance \(km\)\s+Top speed \(km\/h\)\s+Fuel \(l\)/);
    expect(first).toMatch(/2026-03-01 00:00\s+Kaunas–Vilnius, ėčš\s+Stop 1\s+10\.00\s+80\s+3\.3/);
    expect(first).toMatch(/2026-03-01 00:10\s+Москва, Тверская ул\. 7\s+Stop 2\s+11\.23\s+81\s+3\.4/);
  });

  it("numbers every page 'Page n of N'", async () => {
    const { pages, page } = await text();
    page.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages}`));
  });

  it("repeats the table's heading row on the next page and loses no row on the way", async () => {
    const { page } = await text();
    expect(page[1]).toMatch(/Start\s+From\s+To\s+Distance \(km\)\s+Top speed \(km\/h\)\s+Fuel \(l\)/);
    const all = page.join("\n");
    let from = 0;
    for (let i = 0; i < TRIP_ROWS; i++) {
      const row = tripRow(i);
      const line = new RegExp(`${row[0]}\\s+\\S.*\\s+Stop ${i + 1}\\s+${shownNumber(row[3] as number, tripColumns[3])}\\s`, "g");
      line.lastIndex = from;
      const found = line.exec(all);
      expect(found, `row ${i + 1} in order`).not.toBeNull();
      from = line.lastIndex;
    }
  });

  it("ends the table with its totals, then shows the empty table's text", async () => {
    const { page } = await text();
    const all = page.join("\n");
    expect(all).toMatch(new RegExp(`Total\\s+${tripTotals.distance.toFixed(2)}\\s+${tripTotals.fuel.toFixed(1)}`));
    expect(all.indexOf("No stops in this period")).toBeGreaterThan(all.indexOf(tripTotals.distance.toFixed(2)));
  });

  it("shows the second section, cutting a text too long for its cell with an ellipsis", async () => {
    const { page } = await text();
    const all = page.join("\n");
    expect(all).toContain("Москва депо");
    expect(all).toMatch(/Driver\s+Иван Петров/);
    expect(all).toContain('<b>Bold & "quoted"</b>');
    expect(all).toContain("Vilniaus g. 1234, Ąžuolų rajonas");
    expect(all).toContain("…");
    expect(all).not.toContain("THE END");
    expect(all).toContain("Ярославское шоссе");
  });

  it("draws page 1 as a page with ink on it", async () => {
    const { width, height, inked } = firstPageInk((await rendering()).body);
    expect(width < height).toBe(orientation === "portrait");
    expect(inked).toBeGreaterThan(0.02);
    expect(inked).toBeLessThan(0.5);
  });
});

describe("renderPdf and what its font cannot draw", () => {
  it("still renders a report in scripts the embedded font lacks, keeping the text around them", async () => {
    const doc: ReportDocument = {
      title: "北京 report 😀",
      subtitle: [],
      sections: [{ heading: "مرحبا depot", tables: [{ columns: [{ title: "名前" }, { title: "km" }], rows: [["東京 ok", 1.5]] }] }],
    };
    const { body } = await renderPdf(doc, "portrait");
    const text = pageText(body, 1);
    expect(text).toContain("report");
    expect(text).toContain("depot");
    expect(text).toMatch(/ok\s+1\.50/);
  });

  it("makes a report without sections: the title alone", async () => {
    const { body } = await renderPdf({ title: "Nothing to report", subtitle: ["Period: none"], sections: [] }, "landscape");
    expect(pdfInfo(body).pages).toBe(1);
    expect(pageText(body, 1)).toMatch(/Nothing to report\s+Period: none[\s\S]*Page 1 of 1/);
  });

  it("sets a table too wide for a portrait page smaller rather than break its words", async () => {
    const titles = ["Device", "Route start", "Route end", "Route length (km)", "Move duration", "Stop duration", "Stop count", "Top speed (kph)", "Average speed (kph)", "Overspeed count", "Fuel consumption (l)", "Engine work", "Engine idle", "Engine hours"];
    const row = ["Truck 7", "2026-11-26 07:00:00", "2026-11-26 18:00:00", 90.12, "1h 28min", "9h 31min", 3, 100, 61, 1, 9.5, "1h 26min", "9min 0s", "1h 35min"];
    const doc: ReportDocument = { title: "Merged", subtitle: [], sections: [{ heading: "All devices", tables: [{ columns: titles.map((title) => ({ title })), rows: [row] }] }] };
    const { body } = await renderPdf(doc, "portrait");
    // Every word whole somewhere on the page: wrapped only between words ("Top sp / eed" before).
    const words = pageText(body, 1).split(/\s+/);
    for (const word of ["duration", "consumption", "speed", "Overspeed", "2026-11-26", "07:00:00", "28min"]) expect(words, word).toContain(word);
  });

  it("keeps a long name in a merged table's first column whole, wrapped rather than cut", async () => {
    // General information (merged) with a speed limit and a fuel sensor: every column it has.
    const titles = ["Device", "Route start", "Route end", "Route length (km)", "Move duration", "Stop duration", "Stop count", "Top speed (kph)", "Average speed (kph)", "Overspeed count", "Engine work", "Engine idle", "Engine hours", "Fuel consumption (l)"];
    const name = "Volvo FH16 750 Globetrotter XXL Heavy Haulage Tractor Unit Northern Logistics Division Fleet 42";
    const row = [name, "2026-11-26 07:00:00", "2026-11-26 18:00:00", 90.12, "1h 28min", "9h 31min", 3, 100, 61, 1, "1h 26min", "9min 0s", "1h 35min", 9.5];
    const doc: ReportDocument = { title: "Merged", subtitle: [], sections: [{ heading: "All devices", tables: [{ columns: titles.map((title) => ({ title })), rows: [row] }] }] };
    for (const orientation of ["portrait", "landscape"] as const) {
      const words = pageText((await renderPdf(doc, orientation)).body, 1).split(/\s+/);
      expect(words.join(" "), orientation).not.toContain("…");
      for (const word of name.split(" ")) expect(words, `${orientation}: ${word}`).toContain(word);
    }
  });

  it("draws a tab or another control character in a name as a space, not a missing glyph", async () => {
    const doc: ReportDocument = { title: "Tabs", subtitle: [], sections: [{ heading: "Van\t7", summary: [["Plate\u0085", "AB\t123"]], tables: [{ columns: [{ title: "Name" }], rows: [["Depot\tNorth\u2028gate"]] }] }] };
    const text = pageText((await renderPdf(doc, "portrait")).body, 1);
    expect(text).toMatch(/Van 7/);
    expect(text).toMatch(/AB 123/);
    expect(text).toMatch(/Depot North gate/);
  });
});
