import { HtmlValidate } from "html-validate";
import { describe, expect, it } from "vitest";
import { shownNumber } from "../document.js";
import { LONG_ADDRESS, TRIP_ROWS, sampleDocument, tripColumns, tripRow, tripTotals } from "../../test/sample-document.js";
import { renderHtml } from "./html.js";

const rendered = renderHtml(sampleDocument);
const html = rendered.body.toString("utf8");

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
const all = (re: RegExp, s: string) => [...s.matchAll(re)].map((m) => m[1] ?? "");

/** The tables of the page (the page has passed the validator, so its markup is regular), cells unescaped. */
function tables(page: string) {
  const rows = (part: string | undefined) => all(/<tr>([\s\S]*?)<\/tr>/g, part ?? "").map((tr) => all(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g, tr).map(unescape));
  return all(/<table>([\s\S]*?)<\/table>/g, page).map((t) => ({
    head: rows(/<thead>([\s\S]*?)<\/thead>/.exec(t)?.[1]),
    body: rows(/<tbody>([\s\S]*?)<\/tbody>/.exec(t)?.[1]),
    foot: rows(/<tfoot>([\s\S]*?)<\/tfoot>/.exec(t)?.[1]),
  }));
}

describe("renderHtml", () => {
  it("is served as a UTF-8 HTML page", () => {
    expect(rendered.contentType).toBe("text/html; charset=utf-8");
    expect(rendered.extension).toBe("html");
  });

  it("is a valid HTML5 document", async () => {
    const report = await new HtmlValidate({ extends: ["html-validate:recommended", "html-validate:document"] }).validateString(html);
    const problems = report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="[a-z]{2}">/);
    expect(html).toContain('<meta charset="utf-8">');
  });

  it("stands alone: its style embedded, nothing fetched from elsewhere", () => {
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/);
    expect(html).not.toMatch(/\b(src|href)=/);
    expect(html).not.toMatch(/url\(/);
  });

  it("repeats a table's heading row on every printed page", () => {
    const print = /@media print \{([\s\S]*?)\n\}/.exec(html)?.[1] ?? "";
    expect(print).toMatch(/thead \{ display: table-header-group; \}/);
  });

  it("shows the title and subtitle, escaped", () => {
    expect(html).toContain("<title>Trips &amp; stops &lt;general&gt; report</title>");
    expect(html).toContain("<h1>Trips &amp; stops &lt;general&gt; report</h1>");
    for (const line of sampleDocument.subtitle) expect(html).toContain(`<p class="subtitle">${line}</p>`);
  });

  it("heads each section and lists its summary as label and value", () => {
    expect(html).toContain("<h2>Truck LT-001 [Kaunas–Vilnius]: line *7*/night shift</h2>");
    expect(html).toContain("<h2>Москва депо</h2>");
    expect(html).toContain("<dt>Plate</dt><dd>ABC 123 &quot;Ėglė&#39;s&quot;</dd>");
    expect(html).toContain('<dt>Distance (km)</dt><dd class="num">1234.50</dd>');
    expect(html).toContain('<dt>Trips</dt><dd class="num">120</dd>');
    expect(html).toContain("<dt>Driver</dt><dd>Иван Петров</dd>");
  });

  it("shows every cell of the trips table as the report shows it, with the totals in the table's footer", () => {
    const [trips] = tables(html);
    expect(trips?.head).toEqual([tripColumns.map((c) => c.title)]);
    expect(trips?.body).toHaveLength(TRIP_ROWS);
    trips?.body.forEach((row, i) => {
      const expected = tripRow(i).map((cell, c) => (typeof cell === "number" ? shownNumber(cell, tripColumns[c]!) : (cell ?? "")));
      expect(row).toEqual(expected);
    });
    expect(trips?.body[1]).toEqual(["2026-03-01 00:10", "Москва, Тверская ул. 7", "Stop 2", "11.23", "81", "3.4"]);
    expect(trips?.foot).toEqual([["Total", "", "", tripTotals.distance.toFixed(2), "", tripTotals.fuel.toFixed(1)]]);
  });

  it("right-aligns numbers and the headings over them", () => {
    expect(html).toContain('<th scope="col" class="num">Distance (km)</th>');
    expect(html).toContain('<th scope="col">From</th>');
    expect(html).toContain('<td class="num">11.23</td>');
    expect(html).toMatch(/\.num \{[^}]*text-align: right/);
  });

  it("shows an empty table's text instead of the table", () => {
    expect(html).toContain('<p class="empty">No stops in this period</p>');
    expect(html).not.toContain(">Duration</th>");
    expect(tables(html)).toHaveLength(2);
  });

  it("escapes what would otherwise be markup and leaves a missing cell empty", () => {
    const [, points] = tables(html);
    expect(points?.body).toEqual([
      ["08:00", '<b>Bold & "quoted"</b>', "0", ""],
      ["08:15", LONG_ADDRESS, "42.50", "ok"],
      ["08:30", "Ярославское шоссе", "7", "Ψ Ω"],
    ]);
    expect(html).toContain("<td>&lt;b&gt;Bold &amp; &quot;quoted&quot;&lt;/b&gt;</td>");
    expect(html).not.toContain("<b>");
  });
});
