import { describe, expect, it } from "vitest";
import { deviceIcons, mapIconCatalogue } from "@fleet/contracts";
import { MAP_IMAGES, loadMapImages } from "./index.js";

/** A PNG's size from its IHDR chunk, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("the map images", () => {
  it("has a PNG for every device icon and map icon the catalogues name, at the size they give", () => {
    const images = loadMapImages();
    for (const entry of [...deviceIcons, ...mapIconCatalogue]) {
      const png = images.get(`/${entry.path}`);
      expect(png, entry.path).toBeDefined();
      expect(pngSize(png!), entry.path).toEqual({ width: Number(entry.width), height: Number(entry.height) });
    }
  });

  it("draws the history's route markers too, and each image differs from the others", () => {
    const images = loadMapImages();
    for (const status of ["drive", "stop", "start", "end", "event"]) expect(pngSize(images.get(`/assets/images/route_${status}.png`)!)).toEqual({ width: 32, height: 37 });
    expect(images.size).toBe(MAP_IMAGES.length);
    expect(new Set([...images.values()].map((png) => png.toString("base64"))).size).toBe(images.size);
  });
});
