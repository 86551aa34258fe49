/**
 * The slice of a pino logger the bus needs. Taking this instead of `console` lets an app
 * pass its own pino instance (child loggers, levels, redaction) without the bus depending on pino.
 */
export interface BusLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: BusLogger = {
  info() {},
  warn() {},
  error() {},
};
