export { createGeocoder, type GeocoderConfig } from "./create.js";
export { createNominatimGeocoder, DEFAULT_GEOCODER_CACHE_SIZE, DEFAULT_GEOCODER_TIMEOUT_MS, DEFAULT_USER_AGENT, type NominatimGeocoderOptions } from "./nominatim.js";
export { createOfflineGeocoder, DEFAULT_MAX_DISTANCE_KM, type OfflineGeocoderOptions } from "./offline.js";
export { DEFAULT_AUTOCOMPLETE_LIMIT, MAX_AUTOCOMPLETE_LIMIT, PlaceSchema, type Geocoder, type GeocoderLogger, type LatLng, type Place } from "./port.js";
export { foldText } from "./text.js";
