/*
 * The one rule for text coming in, at ingest and the API alike: no C0 control character
 * but tab, newline and carriage return, and nothing that is not well-formed Unicode (a
 * lone UTF-16 surrogate). PostgreSQL refuses NUL in text outright and UTF-8 has no
 * encoding for a lone surrogate, so such strings either fail deep inside a write or are
 * stored garbled; refusing them where they come in keeps them out of every store, log
 * line and message on the bus.
 */

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `s` carries a control character (other than \t \n \r) or a lone surrogate. */
export function hasForbiddenText(s: string): boolean {
  return FORBIDDEN.test(s);
}

/** The failure message for a field refused by {@link hasForbiddenText}; `name` as the message should say it. */
export function forbiddenTextMessage(name: string): string {
  return `The ${name} contains control characters or invalid Unicode.`;
}

/**
 * The same rule as a JSON-schema `pattern`, for schemas whose strings must keep to it. It
 * means the same with the regex `u` flag (AJV: code points, where a pair is one character
 * outside the surrogate range) and without it (TypeBox's compiler: code units, where a
 * pair matches the second branch).
 */
export const ALLOWED_TEXT_PATTERN = String.raw`^(?:[^\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$`;

function isPlainData(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The dotted path (`groups.0.title`) of the first string in `value`, a parsed query or
 * body, that breaks the rule: "" when `value` itself is that string, undefined when there
 * is none. A key that breaks it counts as its object's. Only arrays and plain objects are
 * walked, so binary data (a multipart file's Buffer) is never read as text. Breadth first
 * over its own queue, so no nesting depth can overflow the stack, and a path is only
 * spelled out for the string that is found.
 */
export function findForbiddenText(value: unknown): string | undefined {
  return findText(value, hasForbiddenText);
}

/**
 * Whether `s` holds U+FFFD, which every decoder on the way in (JSON, forms, multipart, query
 * strings) puts where bytes are not UTF-8: text that would be stored garbled. A client that
 * means U+FFFD itself is not a real case.
 */
export function hasUndecodableText(s: string): boolean {
  return s.includes("\uFFFD");
}

/** The failure message for a field refused by {@link hasUndecodableText}; `name` as the message should say it. */
export function undecodableTextMessage(name: string): string {
  return `The ${name} contains bytes that are not valid UTF-8.`;
}

/** {@link findForbiddenText} for {@link hasUndecodableText}: the dotted path of the first string holding U+FFFD. */
export function findUndecodableText(value: unknown): string | undefined {
  return findText(value, hasUndecodableText);
}

function findText(value: unknown, refused: (s: string) => boolean): string | undefined {
  const values: unknown[] = [value];
  const keys: string[] = [""];
  const parents: number[] = [-1];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === "string") {
      if (refused(v)) return pathAt(i, keys, parents);
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    const isArray = Array.isArray(v);
    if (!isArray && !isPlainData(v)) continue;
    for (const key of Object.keys(v)) {
      if (!isArray && refused(key)) return pathAt(i, keys, parents);
      values.push((v as Record<string, unknown>)[key]);
      keys.push(key);
      parents.push(i);
    }
  }
  return undefined;
}

function pathAt(i: number, keys: readonly string[], parents: readonly number[]): string {
  const parts: string[] = [];
  for (let at = i; at > 0; at = parents[at]!) parts.push(keys[at]!);
  return parts.reverse().join(".");
}
