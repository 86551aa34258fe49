/**
 * The run's progress log and its undo steps (as in ingest.ts): every resource the bench
 * makes registers how to remove it, and the steps run last-in first-out at the end,
 * after a failure and on Ctrl-C.
 */
const started = Date.now();

export const log = (line: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);

export const elapsedS = () => (Date.now() - started) / 1000;

type Step = { what: string; run: () => Promise<unknown>; running?: Promise<unknown> };
const undo: Step[] = [];
const runStep = (step: Step) => (step.running ??= step.run());

/**
 * Registers an undo step; the returned function runs it now. Each step runs once: the
 * cleanup awaits a step already started rather than going on without it (after Ctrl-C, a
 * run's own `finally` and the cleanup may both be stopping things).
 */
export function defer(what: string, run: () => Promise<unknown>): () => Promise<void> {
  const step: Step = { what, run };
  undo.push(step);
  return async () => {
    await runStep(step);
  };
}

let cleaning: Promise<void> | undefined;
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (undo.length > 0) {
      const step = undo.pop()!;
      try {
        await runStep(step);
      } catch (err) {
        console.error(`[bench] cleanup: could not ${step.what}: ${String(err)}`);
      }
    }
  })();
  return cleaning;
}

/** Set on Ctrl-C: what fails after it (the app gets the signal too) is not worth reporting. */
export let interrupted = false;

// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by the
// tsx CLI), and a SIGINT with no listener left would end it before the cleanup is done.
process.on("SIGINT", () => {
  if (interrupted) return;
  interrupted = true;
  log("interrupted; cleaning up");
  void cleanup().finally(() => process.exit(130));
});

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A bench's entry point: runs `main`, then exits 0, or 1 after the cleanup when it failed.
 * After Ctrl-C the SIGINT handler cleans up and exits; what it cut off fails meanwhile and is
 * not reported.
 */
export async function runBench(main: () => Promise<void>): Promise<void> {
  try {
    await main();
    if (!interrupted) process.exit(0);
  } catch (err) {
    if (!interrupted) {
      console.error("[bench] failed:", err);
      await cleanup();
      process.exit(1);
    }
  }
}
