import { pino, type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { errorSerializer, requestSerializer } from "./serializers.js";
import { SECRET_PARAMS } from "./secrets.js";

export interface LoggerOptions {
  name: string;
  /** A pino level name (LOG_LEVEL is validated against them by the config schema). */
  level: string;
  /**
   * Human-readable lines (pino-pretty) rather than JSON. Default: when stdout is a terminal,
   * so a person at a console reads sentences and a log collector still gets JSON.
   */
  pretty?: boolean;
  /** Where lines go instead of stdout (tests capture them). */
  destination?: DestinationStream;
}

/** Secret fields wherever a log call might put them: bodies, headers, a user record. */
const REDACT_PATHS = [
  ...[...SECRET_PARAMS].flatMap((k) => [k, `*.${k}`]),
  "apiHash",
  "*.apiHash",
  "passwordHash",
  "*.passwordHash",
  'req.headers["user-api-hash"]',
  "req.headers.authorization",
  "req.headers.cookie",
];

/**
 * The apps' logger: request lines with secret query parameters redacted, errors without a
 * failed query's parameters, secret fields censored, and pretty lines on a terminal.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const options = {
    name: opts.name,
    level: opts.level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    serializers: { req: requestSerializer, err: errorSerializer, error: errorSerializer },
  };
  const wantPretty = opts.pretty ?? (opts.destination === undefined && process.stdout.isTTY === true);
  if (wantPretty) {
    return pino(options, pretty({ colorize: true, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", destination: opts.destination ?? 1 }));
  }
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
