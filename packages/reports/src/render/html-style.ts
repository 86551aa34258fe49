/*
 * The report page's stylesheet, embedded so a saved or mailed report shows the same without
 * network access. Print rules keep a long table readable on paper: its heading row repeats on
 * every page and a row is never split across two.
 */
export const HTML_STYLE = `
:root { color-scheme: light; }
body { font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif; color: #1a1a1a; margin: 24px; }
h1 { font-size: 20px; margin: 0 0 4px; }
.subtitle { color: #555; margin: 0; }
header { margin-bottom: 20px; }
section { margin-bottom: 28px; }
h2 { font-size: 16px; margin: 0 0 8px; padding-bottom: 4px; border-bottom: 2px solid #1a1a1a; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 0 0 12px; }
dl.summary dt { font-weight: 600; }
dl.summary dd { margin: 0; }
table { border-collapse: collapse; margin: 0 0 16px; }
th, td { padding: 3px 8px; border: 1px solid #c8c8c8; text-align: left; vertical-align: top; }
thead th { background: #e8e8e8; }
tbody tr:nth-child(even) { background: #f7f7f7; }
tfoot td { font-weight: 700; border-top: 2px solid #1a1a1a; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.empty { color: #555; font-style: italic; }
@page { size: A4; margin: 12mm; }
@media print {
  body { margin: 0; font-size: 10px; }
  thead { display: table-header-group; }
  tfoot { display: table-footer-group; }
  tr { break-inside: avoid; }
  h2 { break-after: avoid; }
  thead th, tbody tr:nth-child(even) { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`;
