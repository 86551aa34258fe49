/**
 * Draws the map images the API's catalogues name (device icons, map icons, the history's
 * route markers) into ../images as PNGs: a coloured pin with a white glyph from Mapbox's Maki
 * or the Rapid editor's Temaki set (both CC0), rasterised by resvg at the catalogue's size.
 * The PNGs are committed; run `pnpm --filter @fleet/map-images draw` after changing src/drawn.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
import { MAP_IMAGES } from "../src/drawn.js";

const require = createRequire(import.meta.url);
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "images");
const sets: Record<string, string> = {
  maki: path.dirname(require.resolve("@mapbox/maki/package.json")),
  temaki: path.dirname(require.resolve("@rapideditor/temaki/package.json")),
};

/** The drawing inside a 15×15 icon's <svg> element. */
function glyph(name: string): string {
  const [set, icon] = name.split(":");
  const svg = readFileSync(path.join(sets[set!]!, "icons", `${icon}.svg`), "utf8");
  return svg.replace(/^[\s\S]*?<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "");
}

/** A pin of w×h: a circle on top, its tip at the bottom centre, the glyph white in the circle. */
function pin(w: number, h: number, colour: string, name: string): string {
  const r = w / 2 - 1.5;
  const cx = w / 2;
  const cy = r + 1.5;
  const tipY = h - 1;
  const d = tipY - cy;
  const sin = Math.sqrt(1 - (r / d) ** 2);
  const cos = r / d;
  const [lx, rx, ty] = [cx - r * sin, cx + r * sin, cy + r * cos];
  const size = r * 1.25;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <path d="M${cx} ${tipY} L${lx} ${ty} A${r} ${r} 0 1 1 ${rx} ${ty} Z" fill="${colour}" stroke="#ffffff" stroke-width="1.5" stroke-linejoin="round"/>
  <g fill="#ffffff" transform="translate(${cx - size / 2} ${cy - size / 2}) scale(${size / 15})">${glyph(name)}</g>
</svg>`;
}

/** The heading arrow (device icon 0): pointing up, as clients rotate it by the course. */
function arrow(w: number, h: number, colour: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <path d="M${w / 2} 1.5 L${w - 2} ${h - 2} L${w / 2} ${h * 0.72} L2 ${h - 2} Z" fill="${colour}" stroke="#ffffff" stroke-width="1.5" stroke-linejoin="round"/>
</svg>`;
}

function write(file: string, svg: string, w: number): void {
  const png = new Resvg(svg, { fitTo: { mode: "width", value: w } }).render().asPng();
  mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
  writeFileSync(path.join(out, file), png);
  process.stdout.write(`${file} (${png.length} bytes)\n`);
}

for (const i of MAP_IMAGES) write(i.file, i.glyph ? pin(i.width, i.height, i.colour, i.glyph) : arrow(i.width, i.height, i.colour), i.width);
