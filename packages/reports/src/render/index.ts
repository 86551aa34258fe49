import type { RenderedReport, ReportDocument, ReportFormat } from "../document.js";
import { renderHtml } from "./html.js";
import { renderPdf } from "./pdf.js";
import { renderXlsx } from "./xlsx.js";

export { renderHtml } from "./html.js";
export { renderPdf, type PdfOrientation } from "./pdf.js";
export { renderXlsx } from "./xlsx.js";

/** The report in the format the user asked for. */
export async function renderReport(doc: ReportDocument, format: ReportFormat): Promise<RenderedReport> {
  switch (format) {
    case "html":
      return renderHtml(doc);
    case "xls":
      return renderXlsx(doc);
    case "pdf":
      return renderPdf(doc, "portrait");
    case "pdf_land":
      return renderPdf(doc, "landscape");
  }
}
