import { describe, expect, it } from "vitest";
import { DeviceMediaDeleteResponseSchema, DeviceMediaResponseSchema, DeviceMediaUploadResponseSchema, OkSchema } from "@fleet/contracts";
import { deviceMedia } from "@fleet/db";
import { readableSize } from "../src/domain/device-media.js";
import { describeApi, failure, invalid, ok, type ApiHarness, type Reply, type TestUser } from "./fixture.js";
import { swagger, swaggerErrors, vendorErrors } from "./swagger.js";

/** Timezone 65 is UTC+02:00. */
const PLUS_TWO = 65;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 7)]);
const MISSING = 2_000_000_000;

/** POST devices/{id}/media as multipart: the photo as the file part `file`, and any fields. */
async function upload(h: ApiHarness, user: TestUser, device: number | string, file: Buffer | undefined, fields: Record<string, string> = {}): Promise<Reply> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append("file", new Blob([file], { type: "application/octet-stream" }), "photo.bin");
  const encoded = new Response(form);
  return h.inject({
    method: "POST",
    url: `/api/devices/${device}/media`,
    query: { lang: "en", user_api_hash: user.hash },
    headers: { "content-type": encoded.headers.get("content-type")! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}

const uploaded = async (h: ApiHarness, user: TestUser, device: number, file: Buffer, fields: Record<string, string> = {}) => ok(await upload(h, user, device, file, fields), DeviceMediaUploadResponseSchema).data;
const list = (h: ApiHarness, user: TestUser, device: number | string, query: Record<string, string | number> = {}) => h.get(`/devices/${device}/media`, { user, query });
/** The download's raw answer: the bytes as kept. */
const download = (h: ApiHarness, user: TestUser, url: string) => h.app.inject({ method: "GET", url, query: { lang: "en", user_api_hash: user.hash } });
const remove = (h: ApiHarness, user: TestUser, url: string) => h.inject({ method: "DELETE", url, query: { lang: "en", user_api_hash: user.hash } });
const fileName = (url: string) => url.split("/").at(-1)!;

describe("readableSize", () => {
  it("writes bytes under 1 KB as bytes, then KB and MB of 1024 with one decimal", () => {
    expect([readableSize(0), readableSize(1023), readableSize(1024), readableSize(98_509), readableSize(5 * 1024 * 1024)]).toEqual(["0 B", "1023 B", "1.0 KB", "96.2 KB", "5.0 MB"]);
  });
});

describeApi("device media", (h) => {
  it("keeps uploaded photos and lists them newest first, in the vendor's shape and the user's time", async () => {
    const user = await h.newUser({ timezoneId: PLUS_TWO });
    const device = await h.addDevice(user);
    expect(ok(await list(h, user, device), DeviceMediaResponseSchema).data).toEqual([]);

    const before = Date.now();
    const first = await uploaded(h, user, device, JPEG);
    // A data URL, as JSON clients send it.
    const second = ok(await h.post(`/devices/${device}/media`, { user, body: { file: `data:image/png;base64,${PNG.toString("base64")}`, camera_name: "Cabin" } }), DeviceMediaUploadResponseSchema).data;
    expect(first).toEqual({ url: expect.stringMatching(new RegExp(`^/api/devices/${device}/media/file/[A-Za-z0-9_-]{32}$`)), size: "2.9 KB", created_at: expect.any(String), camera_id: null, camera_name: "" });
    expect(second).toMatchObject({ size: `${PNG.length} B`, camera_name: "Cabin" });
    // Written in UTC+2, to the second.
    const shown = Date.parse(`${first.created_at.replace(" ", "T")}+02:00`);
    expect(shown).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(shown).toBeLessThanOrEqual(Date.now());

    const body = ok(await list(h, user, device), DeviceMediaResponseSchema);
    expect(vendorErrors("/devices/{device_id}/media", body)).toEqual([]);
    expect(body.data).toEqual([second, first]);
    expect(body.pagination).toEqual({ total: 2, per_page: 15, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: `/api/devices/${device}/media` });
    const page2 = ok(await list(h, user, device, { limit: 1, page: 2 }), DeviceMediaResponseSchema);
    expect(page2.data).toEqual([first]);
    expect([page2.pagination.last_page, page2.pagination.prev_page_url]).toEqual([2, expect.stringContaining("page=1")]);
  });

  it("downloads a photo as the bytes kept, under the type its bytes show, and deletes it", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    const jpeg = await uploaded(h, user, device, JPEG);
    const png = await uploaded(h, user, device, PNG);

    const got = await download(h, user, jpeg.url);
    expect([got.statusCode, got.headers["content-type"], got.headers["x-content-type-options"]]).toEqual([200, "image/jpeg", "nosniff"]);
    expect(got.rawPayload.equals(JPEG)).toBe(true);
    expect((await download(h, user, png.url)).headers["content-type"]).toBe("image/png");

    const gone = ok(await remove(h, user, jpeg.url), DeviceMediaDeleteResponseSchema);
    expect(gone).toEqual({ status: 1, delete_count: 1 });
    const vendorDelete = swagger.paths["/devices/{device_id}/media/file/{filename}"]!.delete!.responses["200"]!.schema!;
    expect(swaggerErrors(vendorDelete, gone)).toEqual([]);
    expect((await download(h, user, jpeg.url)).statusCode).toBe(404);
    expect(failure(await remove(h, user, jpeg.url), 404)).toBe("Device media not found.");
    expect(ok(await list(h, user, device), DeviceMediaResponseSchema).data).toEqual([png]);
  });

  it("keeps only a device's newest photos (DEVICE_MEDIA_KEEP), leaving other devices' alone", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    const other = await h.addDevice(user);
    const elsewhere = await uploaded(h, user, other, JPEG);
    h.settings.deviceMediaKeep = 2;
    try {
      const photos = [];
      for (let i = 0; i < 4; i++) photos.push(await uploaded(h, user, device, PNG, { camera_name: `c${i}` }));
      expect(ok(await list(h, user, device), DeviceMediaResponseSchema).data).toEqual([photos[3], photos[2]]);
      expect((await download(h, user, photos[0]!.url)).statusCode).toBe(404);
      expect((await download(h, user, photos[3]!.url)).statusCode).toBe(200);
    } finally {
      delete h.settings.deviceMediaKeep;
    }
    expect(ok(await list(h, user, other), DeviceMediaResponseSchema).data).toEqual([elsewhere]);
  });

  it("serves a device's photos to every user who has the device, and to no one else", async () => {
    const owner = await h.newUser();
    const stranger = await h.newUser();
    const device = await h.addDevice(owner);
    const other = await h.addDevice(owner);
    const theirs = await h.addDevice(stranger);
    const photo = await uploaded(h, owner, device, JPEG);
    const name = fileName(photo.url);

    // Another user's device reads as a missing one, for every operation.
    for (const d of [theirs, MISSING]) {
      expect(failure(await list(h, owner, d), 404)).toBe("Device not found.");
      expect(failure(await upload(h, owner, d, JPEG), 404)).toBe("Device not found.");
    }
    expect(failure(await list(h, stranger, device), 404)).toBe("Device not found.");
    for (const user of [stranger]) {
      expect(failure(await h.inject({ method: "GET", url: photo.url, query: { lang: "en", user_api_hash: user.hash } }), 404)).toBe("Device media not found.");
      expect(failure(await remove(h, user, photo.url), 404)).toBe("Device media not found.");
    }
    // A photo is found only under its own device, even among the user's devices.
    expect(failure(await h.inject({ method: "GET", url: `/api/devices/${other}/media/file/${name}`, query: { lang: "en", user_api_hash: owner.hash } }), 404)).toBe("Device media not found.");
    expect((await download(h, owner, photo.url)).statusCode).toBe(200);

    // A deleted device's photos are gone with it, from the database too.
    ok(await h.get("/destroy_device", { user: owner, query: { device_id: device } }), OkSchema);
    expect(failure(await list(h, owner, device), 404)).toBe("Device not found.");
    expect((await download(h, owner, photo.url)).statusCode).toBe(404);
    const kept = await h.db.select({ deviceId: deviceMedia.deviceId }).from(deviceMedia);
    expect(kept.filter((m) => m.deviceId === device)).toEqual([]);
  });

  it("refuses what is not a JPEG or PNG, and malformed paths, keeping nothing", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    expect(invalid(await upload(h, user, device, Buffer.from("GIF89a not a photo")))).toEqual({ file: "The file must be a JPEG or PNG image, as a file or a base64 data URL." });
    expect(invalid(await upload(h, user, device, Buffer.alloc(0)))).toEqual({ file: "The file must be a JPEG or PNG image, as a file or a base64 data URL." });
    expect(invalid(await upload(h, user, device, undefined, { camera_name: "Front" }))).toHaveProperty("file");
    expect(invalid(await h.post(`/devices/${device}/media`, { user, body: { file: "data:image/png;base64,AAAA" } }))).toHaveProperty("file");
    expect(invalid(await h.post(`/devices/${device}/media`, { user, body: { file: `data:image/png;base64,${JPEG.toString("base64")}` } }))).toHaveProperty("file");
    expect(invalid(await upload(h, user, device, JPEG, { camera_name: "x".repeat(65) }))).toHaveProperty("camera_name");
    const big = Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024)]);
    expect(failure(await upload(h, user, device, big), 413)).toMatch(/too large/i);
    expect(invalid(await list(h, user, "abc"))).toHaveProperty("device_id");
    expect(invalid(await h.inject({ method: "GET", url: `/api/devices/${device}/media/file/bad.name`, query: { lang: "en", user_api_hash: user.hash } }))).toHaveProperty("filename");
    expect(ok(await list(h, user, device), DeviceMediaResponseSchema).data).toEqual([]);
  });
});
