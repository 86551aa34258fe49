import type { FastifyReply } from "fastify";

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const DATA_URL = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/]*={0,2})$/;

export type ImageType = "image/png" | "image/jpeg";

/** The image type the bytes start like, by magic number; clients' declared types are not trusted. */
function imageType(bytes: Buffer): ImageType | undefined {
  if (bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return "image/png";
  if (bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return "image/jpeg";
  return undefined;
}

/**
 * An image sent as a multipart file part (a Buffer) or a base64 data URL: its bytes, when
 * they could be read, and its type, when they are a PNG or JPEG (a data URL's declared
 * type must agree with the bytes).
 */
export function uploadedImage(raw: unknown): { bytes?: Buffer; contentType?: ImageType } {
  let bytes: Buffer | undefined;
  let declared: string | undefined;
  if (typeof raw === "string") {
    const m = DATA_URL.exec(raw);
    if (m && m[2]!.length % 4 === 0) [declared, bytes] = [m[1], Buffer.from(m[2]!, "base64")];
  } else if (Buffer.isBuffer(raw)) bytes = raw;
  const sniffed = bytes && imageType(bytes);
  return { bytes, contentType: sniffed && (declared === undefined || declared === sniffed) ? sniffed : undefined };
}

/** The OpenAPI 200 of a route answering a PNG or JPEG. */
export const imageAnswer = (description: string, schema: object) => ({ description, content: { "image/png": { schema }, "image/jpeg": { schema } } });

/** Answers an image of one user's: private, and never to be sniffed as anything but the image it is. */
export const sendPrivateImage = (reply: FastifyReply, contentType: string, bytes: Buffer) =>
  reply.type(contentType).header("cache-control", "private, no-store").header("x-content-type-options", "nosniff").send(bytes);
