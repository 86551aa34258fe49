/**
 * A least-recently-used map bounded in entries: a Map keeps insertion order, so a hit is
 * moved to the end and the first key is the one to drop. A size of 0 keeps nothing.
 */
export class Lru<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The value, marked as just used; undefined when absent. */
  get(key: string): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    if (this.maxEntries <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
  }
}
