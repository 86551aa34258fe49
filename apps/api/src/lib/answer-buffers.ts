/**
 * Buffers that large answers are encoded into and reused once sent. On this kind of
 * machine most of what encoding a 14 MB answer costs is the fresh memory's page faults:
 * `Buffer.from` of the whole list took ~30 ms per 8 MB, writing the same string into a
 * buffer used before ~1 ms.
 */
/** The most bytes UTF-8 writes for one character (a surrogate pair). */
const MAX_CHAR_BYTES = 4;

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
    // Written straight into a kept buffer that may hold it (a byte or more per character):
    // Buffer.byteLength reads the whole text first, ~7 ms of a 5 MB history answer. `write`
    // stops only short of room for a character (at most 4 bytes), so an answer that ends more
    // than 4 bytes before the buffer's end is whole; otherwise it is measured and written again.
    const i = this.free.findIndex((b) => b.length >= json.length + MAX_CHAR_BYTES);
    if (i >= 0) {
      const buffer = this.free[i]!;
      const written = buffer.write(json, 0, "utf8");
      if (written < buffer.length - MAX_CHAR_BYTES) {
        this.free.splice(i, 1);
        return this.lend(buffer, written);
      }
    }
    const size = Buffer.byteLength(json);
    const fits = this.free.findIndex((b) => b.length >= size);
    // A quarter to spare, so a list that grows a little still fits the buffer it had.
    const buffer = fits >= 0 ? this.free.splice(fits, 1)[0]! : Buffer.allocUnsafeSlow(Math.ceil(size * 1.25));
    return this.lend(buffer, buffer.write(json, 0, "utf8"));
  }

  private lend(buffer: Buffer, length: number): Buffer {
    const answer = buffer.subarray(0, length);
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
