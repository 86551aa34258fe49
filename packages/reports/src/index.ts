export * from "./document.js";
export { renderHtml, renderPdf, renderReport, renderXlsx, type PdfOrientation } from "./render/index.js";
export * from "./types/index.js";
