import type { FastifyPluginAsync } from "fastify";
import { loadMapImages } from "@fleet/map-images";

/**
 * The images the catalogues name by path (get_devices' device icons, get_map_icons,
 * get_history's `images`), so a vendor client drawing its map finds them: at the server's root,
 * where the vendor serves them, and again under /api for clients that resolve a path against
 * the API's base. Without `lang` or `user_api_hash`, and left out of the OpenAPI document.
 */
export const mapImageRoutes: FastifyPluginAsync = async (app) => {
  for (const [path, png] of loadMapImages()) {
    app.get(path, { schema: { hide: true }, logLevel: "warn" }, (_req, reply) => reply.type("image/png").header("cache-control", "public, max-age=86400").send(png));
  }
};
