/**
 * The map icons a user can place on the map (the vendor keeps these in a seeded table).
 * Ids are stable: user map icons store them. Width and height are strings with two
 * decimals, as the vendor returns them.
 */
export interface MapIcon {
  id: number;
  path: string;
  width: string;
  height: string;
}

const icon = (id: number, width = "32.00", height = "37.00"): MapIcon => ({ id, path: `images/map_icons/${id}.png`, width, height });

export const mapIconCatalogue: readonly MapIcon[] = Array.from({ length: 20 }, (_, i) => icon(i + 1));

const byId = new Map(mapIconCatalogue.map((m) => [m.id, m]));

/** The catalogue entry of `id`, or undefined when the catalogue has none. */
export function findMapIcon(id: number): MapIcon | undefined {
  return byId.get(id);
}
