/** Catalogues shipped with the platform (the vendor keeps these in seeded tables). */

export const fuelMeasurements = [
  { id: "1", title: "l/100km", fuel_title: "liter", distance_title: "Kilometers", lang: "en", created_at: "2025-01-01 00:00:00", updated_at: "2025-01-01 00:00:00" },
  { id: "2", title: "MPG", fuel_title: "gallon", distance_title: "Miles", lang: "en", created_at: "2025-01-01 00:00:00", updated_at: "2025-01-01 00:00:00" },
  { id: "3", title: "km/l", fuel_title: "liter", distance_title: "Kilometers", lang: "en", created_at: "2025-01-01 00:00:00", updated_at: "2025-01-01 00:00:00" },
];

const icon = (id: number, order: number, kind: string, w = "43.00", h = "57.00") => ({ id: String(id), order: String(order), width: w, height: h, path: `images/device_icons/${kind}.png` });

/** Device icons; id 0 is the arrow drawn by the client. */
export const deviceIcons = [
  icon(0, 0, "arrow", "25.00", "33.00"),
  icon(1, 1, "car"),
  icon(2, 2, "truck"),
  icon(3, 3, "van"),
  icon(4, 4, "bus"),
  icon(5, 5, "motorcycle"),
  icon(6, 6, "bicycle"),
  icon(7, 7, "person"),
  icon(8, 8, "boat"),
  icon(9, 9, "tractor"),
  icon(10, 10, "trailer"),
  icon(11, 11, "pin"),
];

export const deviceIconIds = new Set(deviceIcons.map((i) => Number(i.id)));
export const fuelMeasurementIds = new Set(fuelMeasurements.map((f) => Number(f.id)));
