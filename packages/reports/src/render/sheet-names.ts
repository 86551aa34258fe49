/*
 * Excel refuses a workbook whose sheet names break its rules (at most 31 characters, none of
 * []:*?/\, no apostrophe at either end, "History" reserved, unique without regard to case), and
 * says so only as "we found a problem with some content" when the file is opened.
 */

const MAX = 31;
const FORBIDDEN = /[[\]:*?/\\]/g;

/** Cuts to at most `max` UTF-16 units without splitting a character made of two. */
function cut(text: string, max: number): string {
  let out = "";
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** A name Excel takes, cut at a word's end when that keeps most of it. */
function clean(name: string): string {
  const whole = name.replace(FORBIDDEN, " ").replace(/\s+/g, " ").trim();
  let s = cut(whole, MAX);
  if (s.length < whole.length && whole[s.length] !== " " && s.lastIndexOf(" ") >= MAX / 2) s = s.slice(0, s.lastIndexOf(" "));
  return s.replace(/^['\s]+|['\s]+$/g, "");
}

/** One valid, distinct sheet name per heading, in order; "Sheet N" stands in for a heading with nothing left. */
export function sheetNames(headings: readonly string[]): string[] {
  const taken = new Set<string>(["history"]);
  return headings.map((heading, i) => {
    const base = clean(heading) || `Sheet ${i + 1}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      name = cut(base, MAX - suffix.length).trimEnd() + suffix;
    }
    taken.add(name.toLowerCase());
    return name;
  });
}
