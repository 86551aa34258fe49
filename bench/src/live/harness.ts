/**
 * The run's progress log and its undo steps (as in ingest.ts): every resource the bench
 * makes registers how to remove it, and the steps run last-in first-out at the end,
 * after a failure and on Ctrl-C.
 */
const started = Date.now();

export const log = (line: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);

export const elapsedS = () => (Date.now() - started) / 1000;

type Step = { what: string; run: () => Promise<unknown> };
const undo: Step[] = [];

/** Registers an undo step; the returned function runs it now (once) and drops it from the list. */
export function defer(what: string, run: () => Promise<unknown>): () => Promise<void> {
  const step: Step = { what, run };
  undo.push(step);
  return async () => {
    const i = undo.indexOf(step);
    if (i < 0) return;
    undo.splice(i, 1);
    await step.run();
  };
}

let cleaning: Promise<void> | undefined;
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (undo.length > 0) {
      const step = undo.pop()!;
      try {
        await step.run();
      } catch (err) {
        console.error(`[bench] cleanup: could not ${step.what}: ${String(err)}`);
      }
    }
  })();
  return cleaning;
}

process.once("SIGINT", () => {
  log("interrupted; cleaning up");
  void cleanup().finally(() => process.exit(130));
});

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
