import { MailError } from "./error.js";

/**
 * Sends still under way, so `close` lets them finish (no half-written outbox file, no
 * connection cut mid-message) and refuses new ones.
 */
export function inFlight() {
  const pending = new Set<Promise<unknown>>();
  let closed = false;
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new MailError("failed", "the mailer is closed"));
      const p = work();
      const tracked = p.then(
        () => undefined,
        () => undefined,
      );
      pending.add(tracked);
      void tracked.then(() => pending.delete(tracked));
      return p;
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...pending]);
    },
  };
}
