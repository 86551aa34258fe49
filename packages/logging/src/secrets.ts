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

/** A `name=value` pair anywhere in a URL: after `?` or `&`, or in the path when a client left out the `?`. */
const PAIR = /([^?&;/=#]+)=([^&#]*)/g;

/**
 * The URL with the value of every secret parameter replaced, other parameters and the path
 * kept, the fragment dropped. Pairs in the path count too: `/api/get_devices&user_api_hash=…`
 * (a client that forgot the `?`) is a 404 whose URL still carries a working hash.
 */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf("#");
  const body = hashAt < 0 ? url : url.slice(0, hashAt);
  if (!body.includes("=")) return body;
  return body.replace(PAIR, (pair, name: string) => (isSecretName(name) ? `${name}=${REDACTED}` : pair));
}

/**
 * A database error's text without the values it was run with: drizzle appends the query's
 * parameters (`params: ...`), which for a user row hold its password hash and api hash, and
 * Postgres's `detail` names the offending value of a unique key.
 */
export function redactQueryText(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${REDACTED}`).replace(/Key \(([^)]*)\)=\((.*?)\)/g, (whole, key: string) => (/(hash|password|token)/i.test(key) ? `Key (${key})=(${REDACTED})` : whole));
}
