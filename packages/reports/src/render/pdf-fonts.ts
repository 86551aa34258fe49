import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/*
 * PDF's built-in Helvetica covers WinAnsi only: "ė", "č" and all of Cyrillic come out as wrong
 * letters (pdfkit writes them without complaint), and a fleet's device names, drivers and
 * addresses are full of them. So the report embeds Noto Sans, Google's font made to cover every
 * Latin, Greek and Cyrillic alphabet, from the Expo team's maintained npm build of Google Fonts
 * (plain TTF files: no system fonts to install on a server). pdfkit embeds only the glyphs a
 * report uses, so a report grows by tens of kilobytes, not by the font's 600.
 *
 * What Noto Sans lacks (Chinese, Arabic, emoji) is drawn as its missing-glyph box: the row keeps
 * its place and nothing fails; covering those scripts would take one more font per script.
 */

const require = createRequire(import.meta.url);
const FILES = {
  regular: "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
} as const;

export const REGULAR = "report-regular";
export const BOLD = "report-bold";

let loaded: { regular: Buffer; bold: Buffer } | undefined;

/** The font files, read once per process: every report embeds from the same bytes. */
function fontFiles(): { regular: Buffer; bold: Buffer } {
  loaded ??= { regular: readFileSync(require.resolve(FILES.regular)), bold: readFileSync(require.resolve(FILES.bold)) };
  return loaded;
}

/** Makes REGULAR and BOLD usable as font names in this document. */
export function registerReportFonts(pdf: PDFKit.PDFDocument): void {
  const files = fontFiles();
  pdf.registerFont(REGULAR, files.regular);
  pdf.registerFont(BOLD, files.bold);
}
