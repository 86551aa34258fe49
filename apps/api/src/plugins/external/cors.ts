import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export interface CorsOptions {
  /** Origins whose pages may call the API from a browser: "*" for any, else exactly these; none when empty. */
  origins: "*" | readonly string[];
}

/**
 * Cross-origin calls from browsers (@fastify/cors), so a web client served from another
 * origin can read the API's answers, as Traccar allows by default. No credentials: the API
 * signs calls with the api hash a client sends, never with cookies, so an origin let in reads
 * only what its own page could already ask for with the hash it holds. A preflight is answered
 * however it is formed (not a plain-text 400), and failures carry the headers too, so a page
 * reads why a call failed.
 */
async function corsPolicy(app: FastifyInstance, opts: CorsOptions) {
  if (opts.origins !== "*" && opts.origins.length === 0) return;
  await app.register(cors, {
    origin: opts.origins === "*" ? "*" : [...opts.origins],
    methods: ["GET", "HEAD", "POST", "PUT", "DELETE"],
    strictPreflight: false,
    maxAge: 600,
  });
}

export default fp(corsPolicy, { name: "cors-policy" });
