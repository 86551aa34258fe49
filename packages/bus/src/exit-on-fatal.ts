export interface FatalLogger {
  fatal(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * A consumer app's `onFatal`: a consumer that stopped for good leaves the process up and
 * consuming nothing, which no supervisor notices. So log why, shut down as on a signal
 * (within `timeoutMs`), and exit 1 for the supervisor to start a fresh process.
 */
export function exitOnFatal(logger: FatalLogger, shutdown: () => Promise<void>, timeoutMs = 15_000, exit: (code: number) => void = (code) => process.exit(code)) {
  let exiting = false;
  return (err: Error, ctx: { groupId: string; topic: string }): void => {
    if (exiting) return;
    exiting = true;
    logger.fatal({ err, ...ctx }, "a bus consumer stopped for good; exiting so the supervisor restarts this process");
    setTimeout(() => exit(1), timeoutMs).unref();
    void shutdown()
      .catch((e: unknown) => logger.error({ err: e }, "shutdown after a fatal consumer error failed"))
      .finally(() => exit(1));
  };
}
