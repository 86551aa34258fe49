import { expect, it } from "vitest";
import { AddDeviceDataSchema, GetHistoryResponseSchema, GetMapIconsResponseSchema } from "@fleet/contracts";
import { describeApi, ok, type ApiHarness } from "./fixture.js";

/*
 * The images the catalogues name by path are served, so a vendor client drawing its map
 * (device icons, map icons, history markers) finds each at its size; nothing else is.
 */

/** The PNG at a record's path, as a client resolves it against the API's base. */
async function image(h: ApiHarness, path: string): Promise<{ width: number; height: number }> {
  const r = await h.inject({ method: "GET", url: `/api/${path}` });
  expect(r.status, path).toBe(200);
  expect(r.headers["content-type"]).toBe("image/png");
  expect(r.raw.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: r.raw.readUInt32BE(16), height: r.raw.readUInt32BE(20) };
}

describeApi("map images", (h) => {
  it("serves every device icon and map icon the catalogues list, at the width and height they give, without a hash", async () => {
    const user = await h.newUser();
    const icons = ok(await h.get("/add_device_data", { user }), AddDeviceDataSchema).device_icons;
    const mapIcons = ok(await h.get("/get_map_icons", { user }), GetMapIconsResponseSchema).items;
    expect(icons.length).toBeGreaterThan(10);
    expect(mapIcons.length).toBe(20);
    for (const icon of [...icons, ...mapIcons]) expect(await image(h, icon.path), icon.path).toEqual({ width: Number(icon.width), height: Number(icon.height) });
  });

  it("serves the route markers get_history names", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    const day = { from_date: "2026-01-05", from_time: "00:00", to_date: "2026-01-05", to_time: "23:59" };
    const images = ok(await h.get("/get_history", { user, query: { device_id: device, ...day } }), GetHistoryResponseSchema).images;
    expect(images.map((i) => i.value)).toHaveLength(5);
    for (const { value } of images) expect(await image(h, value)).toEqual({ width: 32, height: 37 });
  });

  it("answers a path no catalogue names with 404", async () => {
    for (const url of ["/api/images/map_icons/21.png", "/api/images/device_icons/../../package.json", "/api/assets/images/route_nowhere.png"]) {
      expect((await h.inject({ method: "GET", url })).status, url).toBe(404);
    }
  });
});
