/**
 * Buffers that large answers are encoded into and reused once sent. On this kind of
 * machine most of what encoding a 14 MB answer costs is the fresh memory's page faults:
 * `Buffer.from` of the whole list took ~30 ms per 8 MB, writing the same string into a
 * buffer used before ~1 ms.
 */
export class AnswerBuffers {
  private readonly free: Buffer[] = [];
  /** Each answer handed out (a view) and the kept buffer under it. */
  private readonly lent = new WeakMap<Buffer, Buffer>();

  constructor(
    /** Answers shorter than this are encoded as usual: small allocations come from warm memory already. */
    private readonly minChars: number,
    /** Most free buffers kept; more answers in flight at once get buffers of their own, later let go. */
    private readonly maxKept: number,
  ) {}

  encode(json: string): Buffer {
    if (json.length < this.minChars) return Buffer.from(json);
    const size = Buffer.byteLength(json);
    const i = this.free.findIndex((b) => b.length >= size);
    // A quarter to spare, so a list that grows a little still fits the buffer it had.
    const buffer = i >= 0 ? this.free.splice(i, 1)[0]! : Buffer.allocUnsafeSlow(Math.ceil(size * 1.25));
    const answer = buffer.subarray(0, buffer.write(json, 0, "utf8"));
    this.lent.set(answer, buffer);
    return answer;
  }

  /** Whether `payload` is an answer of these buffers not yet given back. */
  isLent(payload: unknown): payload is Buffer {
    return Buffer.isBuffer(payload) && this.lent.has(payload);
  }

  /** Gives back the buffer under an answer once the answer is written out; it must not be read after. */
  release(answer: Buffer): void {
    const buffer = this.lent.get(answer);
    if (!buffer) return;
    this.lent.delete(answer);
    if (this.free.length < this.maxKept) this.free.push(buffer);
  }
}
