import { createNominatimGeocoder, endpointLabel } from "./nominatim.js";
import { createOfflineGeocoder } from "./offline.js";
import type { Geocoder, GeocoderLogger } from "./port.js";

export interface GeocoderConfig {
  /** GEOCODER_URL: a server speaking Nominatim's API. Unset: the offline nearest-town lookup. */
  url?: string;
  /** GEOCODER_TIMEOUT_MS: how long one lookup may take. Default 3 s. */
  timeoutMs?: number;
  /** Answers cached per kind of lookup. Default 10,000. */
  cacheSize?: number;
  logger: GeocoderLogger;
}

/**
 * Nominatim when `url` is set, else the offline lookup. Throws for a URL that is not
 * http(s), so a process refuses to start rather than leave every address empty. Logs once
 * which geocoder answers: the server's host and path, never its query (a key may be there).
 */
export function createGeocoder(config: GeocoderConfig): Geocoder {
  if (config.url) {
    const geocoder = createNominatimGeocoder({ url: config.url, timeoutMs: config.timeoutMs, cacheSize: config.cacheSize, logger: config.logger });
    config.logger.info({ geocoder: "nominatim", endpoint: endpointLabel(new URL(config.url)) }, "addresses come from a Nominatim server");
    return geocoder;
  }
  config.logger.info({ geocoder: "offline" }, "addresses are the nearest town, offline (no GEOCODER_URL)");
  return createOfflineGeocoder({ logger: config.logger });
}
