/**
 * Gives the event loop a turn once `sliceMs` of work have passed since the last one, so a long
 * render shares the process: a 900-page PDF is seconds of one thread, and in the embedded
 * server ingest and every API request waited all of it (11 s for an insert, found by a probe).
 *
 *   const pause = pacer();
 *   for (const row of rows) { draw(row); await pause(); }
 *
 * `pause()` is a resolved promise but once a slice; awaiting it costs a microtask a row.
 */
export function pacer(sliceMs = 15): () => Promise<void> {
  let since = performance.now();
  const resumed = () => new Promise<void>((resolve) => setImmediate(resolve)).then(() => void (since = performance.now()));
  return () => (performance.now() - since < sliceMs ? DONE : resumed());
}

const DONE = Promise.resolve();
