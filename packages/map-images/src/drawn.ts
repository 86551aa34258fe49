import { ROUTE_STATUS_NAMES, deviceIcons, mapIconCatalogue, routeMarkerPath, type RouteStatusName } from "@fleet/contracts";

/**
 * An image the API's catalogues name by path, as scripts/draw.ts draws it: a pin of the
 * colour with a glyph (`set:name`, Maki or Temaki), or without one the heading arrow.
 */
export interface DrawnImage {
  /** The path a record gives it, relative to the server's root ("images/map_icons/1.png"). */
  file: string;
  width: number;
  height: number;
  colour: string;
  glyph?: string;
}

/** Each device icon kind's look; a kind missing here fails the draw and the tests. */
const DEVICE_LOOKS: Record<string, { colour: string; glyph?: string }> = {
  arrow: { colour: "#1e88e5" },
  car: { colour: "#1e88e5", glyph: "maki:car" },
  truck: { colour: "#6d4c41", glyph: "temaki:truck" },
  van: { colour: "#00897b", glyph: "maki:car" },
  bus: { colour: "#f9a825", glyph: "temaki:bus" },
  motorcycle: { colour: "#8e24aa", glyph: "temaki:motorcycle" },
  bicycle: { colour: "#43a047", glyph: "maki:bicycle" },
  person: { colour: "#e53935", glyph: "temaki:pedestrian" },
  boat: { colour: "#0277bd", glyph: "temaki:boat" },
  tractor: { colour: "#558b2f", glyph: "maki:farm" },
  trailer: { colour: "#546e7a", glyph: "temaki:camper_trailer" },
  pin: { colour: "#d81b60", glyph: "maki:circle" },
};

/** Map icons 1–20, in catalogue order: places a fleet marks. */
const MAP_LOOKS: { colour: string; glyph: string }[] = [
  { colour: "#e53935", glyph: "maki:marker" },
  { colour: "#1e88e5", glyph: "maki:home" },
  { colour: "#6d4c41", glyph: "maki:warehouse" },
  { colour: "#546e7a", glyph: "maki:industry" },
  { colour: "#f4511e", glyph: "maki:fuel" },
  { colour: "#43a047", glyph: "maki:charging-station" },
  { colour: "#3949ab", glyph: "maki:parking" },
  { colour: "#757575", glyph: "maki:car-repair" },
  { colour: "#8e24aa", glyph: "maki:shop" },
  { colour: "#fb8c00", glyph: "maki:restaurant" },
  { colour: "#5e35b1", glyph: "maki:lodging" },
  { colour: "#d32f2f", glyph: "maki:hospital" },
  { colour: "#283593", glyph: "maki:police" },
  { colour: "#c62828", glyph: "maki:fire-station" },
  { colour: "#f9a825", glyph: "maki:school" },
  { colour: "#0277bd", glyph: "maki:harbor" },
  { colour: "#00838f", glyph: "maki:airport" },
  { colour: "#4e342e", glyph: "maki:rail" },
  { colour: "#fdd835", glyph: "maki:star" },
  { colour: "#00897b", glyph: "maki:information" },
];

/** get_history's `images`: a marker per group status. */
const ROUTE_LOOKS: Record<RouteStatusName, { colour: string; glyph: string }> = {
  drive: { colour: "#1e88e5", glyph: "maki:car" },
  stop: { colour: "#e53935", glyph: "maki:parking" },
  start: { colour: "#43a047", glyph: "maki:triangle" },
  end: { colour: "#212121", glyph: "maki:square" },
  event: { colour: "#fb8c00", glyph: "maki:caution" },
};
export const ROUTE_MARKER_SIZE = { width: 32, height: 37 };

function look<T>(table: Record<string, T> | T[], key: string | number, what: string): T {
  const found = (table as Record<string | number, T | undefined>)[key];
  if (!found) throw new Error(`no look for ${what} ${key}: add it to map-images/src/drawn.ts`);
  return found;
}

export const MAP_IMAGES: readonly DrawnImage[] = [
  ...deviceIcons.map((i) => {
    const kind = /([^/]+)\.png$/.exec(i.path)![1]!;
    return { file: i.path, width: Number(i.width), height: Number(i.height), ...look(DEVICE_LOOKS, kind, "device icon") };
  }),
  ...mapIconCatalogue.map((m, k) => ({ file: m.path, width: Number(m.width), height: Number(m.height), ...look(MAP_LOOKS, k, "map icon") })),
  ...ROUTE_STATUS_NAMES.map((status) => ({ file: routeMarkerPath(status), ...ROUTE_MARKER_SIZE, ...ROUTE_LOOKS[status] })),
];
