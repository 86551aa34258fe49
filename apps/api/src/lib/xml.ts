const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\uFFFE": "", "\uFFFF": "" };
const XML_SPECIAL = /[&<>"'\uFFFE\uFFFF]/;
const XML_SPECIALS = /[&<>"'\uFFFE\uFFFF]/g;

/**
 * Text as XML character data or attribute value. U+FFFE and U+FFFF, which XML 1.0 has no place
 * for, are left out (control characters never get in). Most values are numbers or plain text:
 * testing before replacing costs several times less than replacing.
 */
export const xmlText = (s: string): string => (XML_SPECIAL.test(s) ? s.replace(XML_SPECIALS, (c) => XML_ESCAPES[c]!) : s);
