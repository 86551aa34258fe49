import { readFileSync } from "node:fs";
import { MAP_IMAGES } from "./drawn.js";

export { MAP_IMAGES, type DrawnImage } from "./drawn.js";

/**
 * The images by the path clients ask for (`/images/map_icons/1.png`), read once from the
 * package's committed PNGs. Throws when one is missing, so a server does not start without them.
 */
export function loadMapImages(): Map<string, Buffer> {
  const dir = new URL("../images/", import.meta.url);
  return new Map(MAP_IMAGES.map((i) => [`/${i.file}`, readFileSync(new URL(i.file, dir))]));
}
