import { expect, it } from "vitest";
import { TAIL_MAX, type TailPoint } from "@fleet/contracts";
import { previousPoint } from "./previous.js";

const point = (id: number, fixTime = id * 1000): TailPoint => ({ id, fixTime, latitude: 54, longitude: 25 });

it("finds the point just before, never the fix itself, whichever order the tail is in", () => {
  const tail = [point(1), point(3), point(5)];
  expect(previousPoint(tail, undefined, point(4)).prev).toBe(tail[1]);
  expect(previousPoint(tail, undefined, point(5)).prev).toBe(tail[1]);
  expect(previousPoint([point(3), point(1)], undefined, point(4)).prev).toEqual(point(3));
  // Same time: the lower id comes first.
  expect(previousPoint([point(7, 5000)], undefined, point(8, 5000)).prev).toEqual(point(7, 5000));
});

it("takes the point handled just before in the batch when it is closer", () => {
  const inBatch = point(4);
  expect(previousPoint([point(1), point(3)], inBatch, point(5)).prev).toBe(inBatch);
  expect(previousPoint([point(1), point(3)], inBatch, point(2)).prev).toEqual(point(1));
});

it("leaves history to answer only for a fix older than a full tail", () => {
  const full = Array.from({ length: TAIL_MAX }, (_, i) => point(i + 10));
  expect(previousPoint(full, undefined, point(5))).toEqual({ prev: undefined, known: false });
  expect(previousPoint(full.slice(1), undefined, point(5))).toEqual({ prev: undefined, known: true });
});
