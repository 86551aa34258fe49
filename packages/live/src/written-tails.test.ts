import type { TailPoint } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { WrittenTails } from "./written-tails.js";

const point = (id: number): TailPoint => ({ id, fixTime: id * 1000, latitude: 54 + id / 1000, longitude: 25 });
/** The tracker's way: drop the oldest points past `max`, append the new one, same objects. */
const grown = (tail: readonly TailPoint[], p: TailPoint, max = 3) => [...tail.slice(Math.max(0, tail.length - max + 1)), p];

describe("WrittenTails", () => {
  it("sends a device's first tail whole, then only the points each next tail adds", () => {
    const w = new WrittenTails();
    const t1 = [point(1), point(2)];
    expect(w.next(9, t1)).toEqual({ kind: "replace", points: t1 });
    const t2 = grown(t1, point(3));
    expect(w.next(9, t2)).toEqual({ kind: "append", points: [point(3)], length: 3 });
    const t3 = grown(t2, point(4));
    expect(w.next(9, t3)).toEqual({ kind: "append", points: [point(4)], length: 3 });
    // Several positions between two writes.
    const t5 = grown(grown(t3, point(5)), point(6));
    expect(w.next(9, t5)).toEqual({ kind: "append", points: [point(5), point(6)], length: 3 });
    expect(w.next(9, t5)).toEqual({ kind: "append", points: [], length: 3 });
  });

  it("sends the whole tail when it was not built from the one written last", () => {
    const w = new WrittenTails();
    const t1 = [point(1), point(2), point(3)];
    w.next(9, t1);
    // The same points as new objects (read back from the store, or rebuilt from history).
    expect(w.next(9, t1.map((p) => ({ ...p })))).toMatchObject({ kind: "replace" });
    // A late fix sorted into the middle.
    const t2 = [point(1), point(2), point(3)];
    w.next(9, t2);
    const late = [t2[0]!, point(2.5), t2[1]!, t2[2]!];
    expect(w.next(9, late)).toEqual({ kind: "replace", points: late });
    expect(w.next(9, [])).toEqual({ kind: "replace", points: [] });
    // Other devices keep their own.
    const other = [point(7)];
    w.next(8, other);
    expect(w.next(8, grown(other, point(8)))).toMatchObject({ kind: "append", points: [point(8)] });
  });

  it("sends whole tails again after forget and past its bound", () => {
    const w = new WrittenTails(2);
    const a = [point(1)];
    w.next(1, a);
    w.forget([1]);
    expect(w.next(1, grown(a, point(2)))).toMatchObject({ kind: "replace" });
    const b = [point(3)];
    w.next(2, b);
    w.next(3, [point(4)]); // a third device: the bound is 2, so what was held goes
    expect(w.next(2, grown(b, point(5)))).toMatchObject({ kind: "replace" });
  });
});
