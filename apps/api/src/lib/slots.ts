/** Runs tasks at most `size` at once; the others wait their turn, first come first served. */
export interface Slots {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function slots(size: number): Slots {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(task) {
      // A slot freed while others wait passes straight to the first of them.
      if (running < size) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
