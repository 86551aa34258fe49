/**
 * Group commit: many callers add items, one flush writes them together, and each
 * caller's promise settles with the flush that carried its items. A flush starts when
 * `maxItems` are waiting or `lingerMs` after the first waiting item. While flushes run,
 * the next batch fills; at most `maxConcurrent` flushes are in flight.
 *
 * One caller's items are never split across flushes (so its promise means "all of mine
 * are written"); a single add larger than `maxItems` is flushed on its own.
 */
export interface BatcherOptions<T> {
  maxItems: number;
  lingerMs: number;
  maxConcurrent?: number;
  flush(items: T[]): Promise<void>;
}

export interface Batcher<T> {
  /** Resolves once a flush containing all of `items` succeeded; rejects if it failed. */
  add(items: readonly T[]): Promise<void>;
  /** Starts flushing what waits now, without waiting for the linger (within maxConcurrent). */
  flush(): void;
  /** Flushes everything waiting and waits for every flush in flight. */
  drain(): Promise<void>;
  /** Items waiting for a flush (not counting those being flushed). */
  readonly pending: number;
}

interface Entry<T> {
  items: readonly T[];
  resolve(): void;
  reject(err: unknown): void;
}

export function createBatcher<T>(opts: BatcherOptions<T>): Batcher<T> {
  const maxConcurrent = opts.maxConcurrent ?? 1;
  let queue: Entry<T>[] = [];
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  const running = new Set<Promise<void>>();

  function takeBatch(): Entry<T>[] {
    let n = 0;
    let i = 0;
    while (i < queue.length && (i === 0 || n + queue[i]!.items.length <= opts.maxItems)) {
      n += queue[i]!.items.length;
      i++;
    }
    const batch = queue.slice(0, i);
    queue = queue.slice(i);
    queued -= n;
    return batch;
  }

  function startFlush(): void {
    const batch = takeBatch();
    if (batch.length === 0) return;
    const p = opts
      .flush(batch.length === 1 ? [...batch[0]!.items] : batch.flatMap((e) => e.items))
      .then(
        () => batch.forEach((e) => e.resolve()),
        (err: unknown) => batch.forEach((e) => e.reject(err)),
      )
      .finally(() => {
        running.delete(p);
        pump(false);
      });
    running.add(p);
  }

  /** Starts flushes while there is room and a reason (full batch, or the linger elapsed). */
  function pump(lingerElapsed: boolean): void {
    while (queued > 0 && running.size < maxConcurrent && (lingerElapsed || queued >= opts.maxItems || !timer)) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      startFlush();
    }
    if (queued > 0 && !timer && running.size < maxConcurrent) {
      timer = setTimeout(() => {
        timer = undefined;
        pump(true);
      }, opts.lingerMs);
    }
  }

  return {
    add(items: readonly T[]): Promise<void> {
      if (items.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        queue.push({ items, resolve, reject });
        queued += items.length;
        if (queued >= opts.maxItems) pump(true);
        else if (!timer && running.size < maxConcurrent) {
          timer = setTimeout(() => {
            timer = undefined;
            pump(true);
          }, opts.lingerMs);
        }
      });
    },
    flush(): void {
      pump(true);
    },
    async drain(): Promise<void> {
      while (queued > 0 || running.size > 0) {
        pump(true);
        if (running.size > 0) await Promise.race(running);
      }
    },
    get pending() {
      return queued;
    },
  };
}
