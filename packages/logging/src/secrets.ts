/**
 * What must never reach a log line: credentials that act as a user (api hashes, passwords,
 * reset codes and download tokens) and an SMS gateway's credentials. Names are compared in lower case.
 */
export const SECRET_PARAMS: ReadonlySet<string> = new Set([
  "user_api_hash",
  "api_hash",
  "password",
  "password_confirmation",
  "current_password",
  "new_password",
  "token",
  // password_reminder's reset code, the token under another name.
  "code",
  "auth_token",
  "sms_gateway_url",
  // Not this API's names, but a client's guess at one still carries the password or hash.
  "passwd",
  "pwd",
  "pass",
  "pw",
  "hash",
  "key",
  "secret",
]);

export const REDACTED = "[redacted]";

function isSecretName(raw: string): boolean {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    // A malformed escape is compared as written.
  }
  // `password[]` and `user_api_hash[0]` are the same field to a form parser.
  return SECRET_PARAMS.has(name.replace(/\[.*$/, "").toLowerCase());
}

/** A run of hex digits as long as a hash's half or more: no id or word of this API is one. */
const HASH_LIKE = /[0-9a-f]{32,}/gi;

/** A `name=value` pair anywhere in a URL: after `?` or `&`, or in the path when a client left out the `?`. */
const PAIR = /([^?&;/=#]+)=([^&#]*)/g;

/** A character as written in a URL: itself or percent-encoded (either case). */
const written = (c: string) => (/[a-z0-9]/i.test(c) ? c : `(?:\\${c}|%${c.charCodeAt(0).toString(16).padStart(2, "0")})`);

/**
 * A secret's name however a careless client writes the pair: after any separator (raw or
 * encoded), its underscores encoded or not, blanks or brackets before an `=` (raw or `%3D`) or
 * a `:`; the value runs to the next `&` (raw or `%26`) or the end.
 */
const WRITTEN_SECRET = new RegExp(
  `((?:^|[?&;/]|%26|%3F|%3B|%2F)(?:${[...SECRET_PARAMS].map((name) => [...name].map(written).join("")).join("|")})(?:\\s|\\+|%20|%09|\\[[^\\]]*\\]|%5B[^&]*?%5D)*(?:=|%3D|:))(?:(?!%26)[^&#])*`,
  "gi",
);

/**
 * The URL with the value of every secret parameter replaced, other parameters and the path
 * kept, the fragment and any user-info (`user:password@`) dropped. Pairs in the path count too:
 * `/api/get_devices&user_api_hash=…` (a client that forgot the `?`) is a 404 whose URL still
 * carries a working hash; so do separators and `=` written encoded, and blanks after a name.
 */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf("#");
  const body = (hashAt < 0 ? url : url.slice(0, hashAt)).replace(/\/\/[^/?@\s]*@/g, `//${REDACTED}@`);
  if (!/=|%3d|:/i.test(body)) return body.replace(HASH_LIKE, REDACTED);
  const pairs = body
    .replace(PAIR, (pair, name: string) => (isSecretName(name) ? `${name}=${REDACTED}` : pair))
    .replace(WRITTEN_SECRET, (_, head: string) => `${head}${REDACTED}`)
    // An api hash is 64 hex digits: one pasted without its name (`/api/<hash>`) is still one.
    .replace(HASH_LIKE, REDACTED);
  return stillNamesASecret(pairs) ? withoutParameters(pairs) : pairs;
}

/** The long secret names with their separators and case taken out: what a mangled pair still shows. */
const LOOSE_SECRET = /(userapihash|apihash|hash|passwordconfirmation|password(?!confirmation)|passwd|pwd|secret|authtoken|token|smsgatewayurl)(?!redacted)/;
/** Where a URL's parameters begin, raw or encoded. */
const PARAMETERS = /[?&;]|%3f|%26|%3b/i;
/** A path without these holds no value, whatever its words say ("/api/change_password"). */
const HOLDS_VALUE = /=|%3d|:|@/i;

function decodedLoosely(text: string): string {
  let out = text;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(out); i++) out = out.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return out.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * Whether a secret's name is still there with something after it other than the redaction:
 * a pair mangled past what the patterns read (`a[user_api_hash]=`, `userApiHash=`, a control
 * character after the name, a pair inside another value).
 */
function stillNamesASecret(url: string): boolean {
  const { path, rest } = splitParameters(url);
  return LOOSE_SECRET.test(decodedLoosely(HOLDS_VALUE.test(path) ? url : rest));
}

function splitParameters(url: string): { path: string; rest: string } {
  const cut = url.search(PARAMETERS);
  return cut < 0 ? { path: url, rest: "" } : { path: url.slice(0, cut), rest: url.slice(cut) };
}

/** The URL up to its first parameter, the rest replaced: when a secret cannot be told from the rest, none of it is logged. */
function withoutParameters(url: string): string {
  const { path } = splitParameters(url);
  return stillNamesASecret(path) ? REDACTED : `${path}?${REDACTED}`;
}

/**
 * A database error's text without the values it was run with: drizzle appends the query's
 * parameters (`params: ...`), which for a user row hold its password hash and api hash, and
 * Postgres's `detail` names the offending value of a unique key.
 */
export function redactQueryText(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${REDACTED}`).replace(/Key \(([^)]*)\)=\((.*?)\)/g, (whole, key: string) => (/(hash|password|token)/i.test(key) ? `Key (${key})=(${REDACTED})` : whole));
}
