import { randomBytes } from "node:crypto";
import { and, count, desc, eq, notInArray } from "drizzle-orm";
import type { Db, Queryable } from "../client.js";
import type { Page } from "../owned.js";
import { deviceMedia } from "../schema/device-media.js";
import { userHasDevice } from "./user-has-device.js";

/*
 * A device's photos, read and written only through a user who has the device: another
 * user's device, or a file of another device, reads as a missing one.
 */

export interface NewDeviceMedia {
  body: Buffer;
  contentType: string;
  cameraName?: string;
}

/** A photo as its device's list shows it. */
export interface DeviceMediaEntry {
  name: string;
  size: number;
  cameraName: string;
  createdAt: Date;
}

/**
 * Keeps a photo of the device, and only its newest `keep` photos: a camera relaying a picture
 * at every event must not fill the database. Its entry as the list shows it, or undefined when
 * the device is not one the user has.
 */
export async function addDeviceMedia(db: Db, userId: number, deviceId: number, media: NewDeviceMedia, keep: number): Promise<DeviceMediaEntry | undefined> {
  if (!(await userHasDevice(db, userId, deviceId))) return undefined;
  const name = randomBytes(24).toString("base64url");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(deviceMedia)
      .values({ deviceId, name, contentType: media.contentType, size: media.body.length, body: media.body, cameraName: media.cameraName ?? "" })
      .returning({ name: deviceMedia.name, size: deviceMedia.size, cameraName: deviceMedia.cameraName, createdAt: deviceMedia.createdAt });
    const newest = tx.select({ id: deviceMedia.id }).from(deviceMedia).where(eq(deviceMedia.deviceId, deviceId)).orderBy(desc(deviceMedia.id)).limit(keep);
    await tx.delete(deviceMedia).where(and(eq(deviceMedia.deviceId, deviceId), notInArray(deviceMedia.id, newest)));
    return row;
  });
}

/** A page of the device's photos, newest first, and how many it has; undefined when the device is not one the user has. */
export async function pageDeviceMedia(db: Queryable, userId: number, deviceId: number, page: Page): Promise<{ total: number; rows: DeviceMediaEntry[] } | undefined> {
  if (!(await userHasDevice(db, userId, deviceId))) return undefined;
  const these = eq(deviceMedia.deviceId, deviceId);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ name: deviceMedia.name, size: deviceMedia.size, cameraName: deviceMedia.cameraName, createdAt: deviceMedia.createdAt })
      .from(deviceMedia)
      .where(these)
      .orderBy(desc(deviceMedia.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(deviceMedia).where(these),
  ]);
  return { total: counted?.n ?? 0, rows };
}

/** The photo's bytes and type; undefined when it is not a photo of this device or the device is not one the user has. */
export async function findDeviceMedia(db: Queryable, userId: number, deviceId: number, name: string): Promise<{ body: Buffer; contentType: string } | undefined> {
  if (!(await userHasDevice(db, userId, deviceId))) return undefined;
  const [row] = await db
    .select({ body: deviceMedia.body, contentType: deviceMedia.contentType })
    .from(deviceMedia)
    .where(and(eq(deviceMedia.deviceId, deviceId), eq(deviceMedia.name, name)));
  return row;
}

/** Deletes the photo; false when it is not a photo of this device or the device is not one the user has. */
export async function deleteDeviceMedia(db: Db, userId: number, deviceId: number, name: string): Promise<boolean> {
  if (!(await userHasDevice(db, userId, deviceId))) return false;
  const gone = await db
    .delete(deviceMedia)
    .where(and(eq(deviceMedia.deviceId, deviceId), eq(deviceMedia.name, name)))
    .returning({ id: deviceMedia.id });
  return gone.length > 0;
}
