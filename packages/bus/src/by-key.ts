/**
 * Handles a batch key by key: one key's messages strictly in order, different keys
 * concurrently (at most `concurrency` keys at once). That keeps per-device ordering without
 * processing a whole batch serially, and avoids `Promise.all` over the batch, which would not.
 *
 * If a message fails, the rest of its key is skipped (later positions must not overtake
 * it); other keys carry on, and once everything in flight has settled the first error is
 * thrown, so the whole batch is redelivered only when nothing of it is still running.
 */
export async function forEachKeyInOrder<M extends { key: string }>(
  messages: readonly M[],
  fn: (message: M) => Promise<void>,
  opts: { concurrency?: number } = {},
): Promise<void> {
  const byKey = new Map<string, M[]>();
  for (const m of messages) {
    const list = byKey.get(m.key);
    if (list) list.push(m);
    else byKey.set(m.key, [m]);
  }
  const queue = [...byKey.values()];
  let failure: { err: unknown } | undefined;
  const runner = async () => {
    for (let list = queue.shift(); list; list = queue.shift()) {
      try {
        for (const m of list) await fn(m);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  const runners = Math.max(1, Math.min(opts.concurrency ?? 64, queue.length));
  await Promise.all(Array.from({ length: runners }, runner));
  if (failure) throw failure.err;
}
