/** Letters NFKD leaves whole that a person types without their mark. */
const FOLD: Record<string, string> = { ł: "l", ø: "o", đ: "d", ħ: "h", ı: "i", ß: "ss", æ: "ae", œ: "oe", þ: "th", ð: "d" };

/**
 * Text as the offline search compares it: lower case, without accents ("Šiauliai" and
 * "siauliai" alike, "Łódź" and "lodz"), runs of spaces and dashes as one space.
 */
export function foldText(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[łøđħıßæœþð]/g, (c) => FOLD[c] ?? c)
    .replace(/[\s\-‐-―_]+/g, " ")
    .trim();
}

/** A search text as a cache key: trimmed, lower case, single spaces (accents kept: the source decides what they mean). */
export function searchKey(q: string): string {
  return q.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}
