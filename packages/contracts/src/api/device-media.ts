import { Type, type Static } from "@sinclair/typebox";
import { PageQuery, PaginationCompactSchema } from "./pagination.js";

/*
 * A device's photos (GET devices/{device_id}/media, and GET and DELETE of one of them under
 * media/file/{filename}), as the vendor's Swagger shapes them, and the upload that keeps one
 * (POST devices/{device_id}/media, ours: docs/decisions.md, "Device media").
 */

const RecordId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** The page size of a device's photos unless the request gives one (the vendor's example shows 15). */
export const DEVICE_MEDIA_PER_PAGE = 15;
/** The largest photo kept (the same as the api's multipart limit on any file, MULTIPART_LIMITS.fileSize). */
export const DEVICE_MEDIA_MAX_BYTES = 5 * 1024 * 1024;
/** Photos kept per device unless DEVICE_MEDIA_KEEP says otherwise (@fleet/config's default). */
export const DEVICE_MEDIA_KEEP = 1000;

export const DeviceMediaParamsSchema = Type.Object({ device_id: RecordId });
export const DeviceMediaFileParamsSchema = Type.Object({
  device_id: RecordId,
  filename: Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$", description: "the file name of the photo's url" }),
});

export const DeviceMediaQuerySchema = Type.Object(PageQuery);
export type DeviceMediaQuery = Static<typeof DeviceMediaQuerySchema>;

/** A photo in its device's list. */
export const DeviceMediaEntrySchema = Type.Object({
  url: Type.String({ description: "where it downloads (with the user's api hash), /api/devices/{device_id}/media/file/{filename}" }),
  size: Type.String({ description: "its size as people read it, e.g. 96.2 KB" }),
  created_at: Type.String({ description: "when it was kept, YYYY-MM-DD HH:MM:SS in the user's timezone" }),
  camera_id: Type.Null({ description: "no camera records: always null" }),
  camera_name: Type.String({ description: "the camera the upload named, or empty" }),
});
export type DeviceMediaEntry = Static<typeof DeviceMediaEntrySchema>;

export const DeviceMediaResponseSchema = Type.Object({ status: Type.Literal(1), data: Type.Array(DeviceMediaEntrySchema), pagination: PaginationCompactSchema });

/** A data URL of a 5 MiB image in base64, with room for its `data:image/jpeg;base64,` prefix. */
const DATA_URL_MAX = 64 + Math.ceil(DEVICE_MEDIA_MAX_BYTES / 3) * 4;

/**
 * The upload: a JPEG or PNG as a multipart file part `file`, or as a base64 data URL. A file
 * part reaches validation as a Buffer, which JSON Schema can only call an object; the route
 * checks what it holds.
 */
export const DeviceMediaUploadBodySchema = Type.Object({
  file: Type.Union(
    [
      Type.String({ maxLength: DATA_URL_MAX, pattern: "^data:", description: "data:image/jpeg;base64,… or data:image/png;base64,…" }),
      Type.Unsafe<Uint8Array>({ type: "object", description: "a multipart file part" }),
    ],
    { description: "a JPEG or PNG of at most 5 MiB" },
  ),
  camera_name: Type.Optional(Type.String({ maxLength: 64, description: "the camera that took it, for a device with several" })),
});
export type DeviceMediaUploadBody = Static<typeof DeviceMediaUploadBodySchema>;

export const DeviceMediaUploadResponseSchema = Type.Object({ status: Type.Literal(1), data: DeviceMediaEntrySchema });

export const DeviceMediaDeleteResponseSchema = Type.Object({ status: Type.Literal(1), delete_count: Type.Integer({ minimum: 1 }) });

/** The photo download's bytes, under the type it was kept as. */
export const DeviceMediaImageSchema = Type.Unsafe<Uint8Array>({ type: "string", format: "binary" });
