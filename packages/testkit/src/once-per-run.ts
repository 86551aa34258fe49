/**
 * What a global setup makes, made once per test run: every project of the run calls its
 * global setup (each with its own provide), in the one main process, and the services'
 * probe, its warnings and the template stores need doing only once.
 */
export function oncePerRun<T>(key: string, make: () => Promise<T>): Promise<T> {
  const made = ((globalThis as { __fleetOncePerRun?: Map<string, Promise<unknown>> }).__fleetOncePerRun ??= new Map());
  let it = made.get(key) as Promise<T> | undefined;
  if (!it) {
    it = make();
    made.set(key, it);
  }
  return it;
}
