import { expect, it } from "vitest";
import type { DeliveredMessage } from "@fleet/bus";
import type { RawPosition } from "@fleet/contracts";
import { decodeBatch } from "./decode.js";

const position: RawPosition = { id: 1, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speed: 0, fixTime: Date.UTC(2025, 0, 1), serverTime: Date.UTC(2025, 0, 1), attributes: {} };
let offset = 0;
const message = (value: string): DeliveredMessage => ({ key: "123", value: Buffer.from(value), partition: 0, offset: String(offset++) });

it("keeps the batch's positions in order and gives back the messages that are none, with why", () => {
  const good = [message(JSON.stringify(position)), message(JSON.stringify({ ...position, id: 2 }))];
  const notJson = message("{nope");
  const notPosition = message(JSON.stringify({ ...position, latitude: 91 }));
  const empty = message("null");
  const { raws, rejected } = decodeBatch([good[0]!, notJson, notPosition, good[1]!, empty]);
  expect(raws.map((r) => r.id)).toEqual([1, 2]);
  expect(rejected.map((r) => r.message)).toEqual([notJson, notPosition, empty]);
  expect(rejected.map((r) => r.error.message)).toEqual([expect.stringMatching(/^not JSON: /), expect.stringMatching(/^not a position: \/latitude /), expect.stringMatching(/^not a position: \/ /)]);
});
