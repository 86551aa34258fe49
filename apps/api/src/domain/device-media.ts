import { DEVICE_MEDIA_MAX_BYTES, DEVICE_MEDIA_PER_PAGE, InvalidInputError, NotFoundError, type DeviceMediaEntry, type DeviceMediaQuery, type DeviceMediaUploadBody } from "@fleet/contracts";
import { addDeviceMedia, deleteDeviceMedia, findDeviceMedia, pageDeviceMedia, type Db, type DeviceMediaEntry as StoredEntry, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { uploadedImage } from "../lib/image-type.js";
import { pageRequest, pageWindow, paginateCompact } from "../lib/pagination.js";

/*
 * A device's photos: listed newest first, downloaded and deleted by their file name, and
 * kept through an upload (docs/decisions.md, "Device media"). Only through a user who has
 * the device: another user's device or photo answers as a missing one.
 */

const WHAT = "Device media";
const UNITS = ["KB", "MB", "GB"];

/** A size as the vendor's list shows it: bytes under 1 KB, else KB or MB with one decimal (1 KB = 1024 bytes). */
export function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

const fileUrl = (deviceId: number, name: string) => `/api/devices/${deviceId}/media/file/${name}`;

function entry(user: User, deviceId: number, m: StoredEntry): DeviceMediaEntry {
  return { url: fileUrl(deviceId, m.name), size: readableSize(m.size), created_at: clockOf(user).format(m.createdAt.getTime()), camera_id: null, camera_name: m.cameraName };
}

/** GET devices/{device_id}/media: a page of the device's photos, newest first. */
export async function list(db: Db, user: User, deviceId: number, query: DeviceMediaQuery, url: string) {
  const page = pageRequest(query, DEVICE_MEDIA_PER_PAGE);
  const found = await pageDeviceMedia(db, user.id, deviceId, pageWindow(page));
  if (!found) throw new NotFoundError("Device");
  return { status: 1 as const, ...paginateCompact({ url }, page, found.total, found.rows.map((m) => entry(user, deviceId, m))) };
}

/**
 * POST devices/{device_id}/media: keeps a JPEG or PNG (a file part or a data URL; its type read
 * from its bytes) as the device's newest photo, and only the newest `keep` of its photos.
 */
export async function upload(db: Db, user: User, deviceId: number, body: DeviceMediaUploadBody, keep: number) {
  const { bytes, contentType } = uploadedImage(body.file);
  if (bytes && bytes.length > DEVICE_MEDIA_MAX_BYTES) throw new InvalidInputError({ file: `The file may not be greater than ${DEVICE_MEDIA_MAX_BYTES / 1024} kilobytes.` });
  if (!bytes || !contentType) throw new InvalidInputError({ file: "The file must be a JPEG or PNG image, as a file or a base64 data URL." });
  const cameraName = body.camera_name?.trim() ?? "";
  const kept = await addDeviceMedia(db, user.id, deviceId, { body: bytes, contentType, cameraName }, keep);
  if (!kept) throw new NotFoundError("Device");
  return { status: 1 as const, data: entry(user, deviceId, kept) };
}

/** GET devices/{device_id}/media/file/{filename}: the photo's bytes and type. */
export async function file(db: Db, user: User, deviceId: number, name: string): Promise<{ body: Buffer; contentType: string }> {
  const found = await findDeviceMedia(db, user.id, deviceId, name);
  if (!found) throw new NotFoundError(WHAT);
  return found;
}

/** DELETE devices/{device_id}/media/file/{filename}. */
export async function destroy(db: Db, user: User, deviceId: number, name: string) {
  if (!(await deleteDeviceMedia(db, user.id, deviceId, name))) throw new NotFoundError(WHAT);
  return { status: 1 as const, delete_count: 1 };
}
