import { stdSerializers } from "pino";
import { redactQueryText, redactUrl } from "./secrets.js";

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** fastify's request serializer, with the URL's secret parameters redacted. */
export function requestSerializer(req: RequestLike) {
  return {
    method: req.method,
    url: typeof req.url === "string" ? redactUrl(req.url) : req.url,
    host: req.host ?? req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

type Serialized = Record<string, unknown>;

/** Strips query parameters from a serialized error and its causes, however deep. */
function scrub(value: Serialized, depth = 0): Serialized {
  if (depth > 5) return value;
  for (const key of ["message", "stack", "detail"] as const) {
    const text = value[key];
    if (typeof text === "string") value[key] = redactQueryText(text);
  }
  delete value.params;
  delete value.parameters;
  const cause = value.cause;
  if (cause && typeof cause === "object") value.cause = scrub(cause as Serialized, depth + 1);
  return value;
}

/** pino's error serializer (with causes), without the parameters a failed query carries. */
export function errorSerializer(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return scrub(stdSerializers.errWithCause(err) as unknown as Serialized);
}
