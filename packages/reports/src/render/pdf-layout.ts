/* Page geometry shared by the PDF's parts, so the table and the page footer agree on where a page ends. */

export const MARGIN = 40;
/** Room under the content for the page footer ("Page 2 of 5"). */
export const FOOTER_ROOM = 28;

export const GREY = "#555555";
export const RULE = "#1a1a1a";

export function contentWidth(pdf: PDFKit.PDFDocument): number {
  return pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
}

export function pageBottom(pdf: PDFKit.PDFDocument): number {
  return pdf.page.height - pdf.page.margins.bottom;
}

/** Starts a new page when `height` more points would not fit on this one; says whether it did. */
export function ensureSpace(pdf: PDFKit.PDFDocument, height: number): boolean {
  if (pdf.y + height <= pageBottom(pdf)) return false;
  pdf.addPage();
  return true;
}
