/**
 * Position ids: (ms since 2025-01-01) × 2^13 + a sequence, which stays below 2^53 (a
 * JSON-safe integer) until 2059. Monotonic within one ingest process; the random start
 * of the sequence keeps two processes from colliding except by rare chance, and a
 * collision only merges rows that also share device and fixTime (history's key).
 */
const EPOCH = Date.UTC(2025, 0, 1);
const SEQ = 8192;

export function createIdGenerator(now: () => number = Date.now): () => number {
  let last = 0;
  return () => {
    const floor = (now() - EPOCH) * SEQ + Math.floor(Math.random() * (SEQ / 2));
    last = Math.max(last + 1, floor);
    return last;
  };
}
