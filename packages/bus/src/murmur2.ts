/**
 * Kafka's murmur2 (Java client `Utils.murmur2`) and its key → partition rule, so the
 * in-process bus puts a key on the same partition number as kafkajs's DefaultPartitioner
 * and the Java client would for a topic with the same partition count.
 */
export function murmur2(key: string | Buffer): number {
  const data = typeof key === "string" ? Buffer.from(key) : key;
  const length = data.length;
  const m = 0x5bd1e995;
  let h = (0x9747b28c ^ length) | 0;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  // The tail bytes, as the Java switch with fall-through (which tsconfig forbids).
  const tail = length & ~3;
  const rest = length & 3;
  if (rest === 3) h ^= data[tail + 2]! << 16;
  if (rest >= 2) h ^= data[tail + 1]! << 8;
  if (rest >= 1) {
    h ^= data[tail]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's `toPositive(murmur2(key)) % numPartitions`. */
export function partitionForKey(key: string, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}
