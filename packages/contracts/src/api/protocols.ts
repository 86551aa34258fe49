/**
 * Device protocols the platform knows by name (Traccar's names, as ingest receives them in
 * `protocol`): the option list of custom events, GPRS templates and the alerts' event
 * protocols. A device's own protocol is whatever its positions carry.
 */
export const protocols = [
  "osmand",
  "gt06",
  "teltonika",
  "h02",
  "tk103",
  "gps103",
  "meitrack",
  "gl200",
  "coban",
  "watch",
  "pt502",
  "xexun",
  "totem",
  "suntech",
  "ruptela",
  "galileo",
  "wialon",
  "eelink",
  "huabao",
  "castel",
] as const;
export type Protocol = (typeof protocols)[number];
