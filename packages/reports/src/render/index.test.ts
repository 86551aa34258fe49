import { describe, expect, it } from "vitest";
import { REPORT_FORMATS } from "../document.js";
import { sampleDocument } from "../../test/sample-document.js";
import { renderReport } from "./index.js";

/** The page size a PDF declares for its first page, read from the file (page dictionaries are not compressed). */
function mediaBox(pdf: Buffer): number[] {
  const box = /\/MediaBox \[([\d.\s]+)\]/.exec(pdf.toString("latin1"));
  return (box?.[1] ?? "").trim().split(/\s+/).map(Number);
}

describe("renderReport", () => {
  it("renders every vendor format as the file that format names", async () => {
    const files = await Promise.all(REPORT_FORMATS.map(async (format) => [format, await renderReport(sampleDocument, format)] as const));
    const seen = Object.fromEntries(files.map(([format, r]) => [format, { contentType: r.contentType, extension: r.extension, magic: r.body.subarray(0, 4).toString("latin1") }]));
    expect(seen).toEqual({
      html: { contentType: "text/html; charset=utf-8", extension: "html", magic: "<!DO" },
      xls: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", extension: "xlsx", magic: "PK\u0003\u0004" },
      pdf: { contentType: "application/pdf", extension: "pdf", magic: "%PDF" },
      pdf_land: { contentType: "application/pdf", extension: "pdf", magic: "%PDF" },
    });
  });

  it("lays pdf out upright and pdf_land on its side", async () => {
    const [upright, sideways] = await Promise.all([renderReport(sampleDocument, "pdf"), renderReport(sampleDocument, "pdf_land")]);
    expect(mediaBox(upright.body)).toEqual([0, 0, 595.28, 841.89]);
    expect(mediaBox(sideways.body)).toEqual([0, 0, 841.89, 595.28]);
  });
});
