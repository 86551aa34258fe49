import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as media from "../domain/device-media.js";
import { endpoints } from "../lib/endpoints.js";
import { imageAnswer, sendPrivateImage } from "../lib/image-type.js";
import { currentUser } from "../plugins/app/auth.js";

const tags = ["Device Media"];

export const deviceMediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, settings } = app.services;
  const api = endpoints(app, tags);

  api.get(
    "/devices/:device_id/media",
    { summary: "The device's photos, newest first, a page at a time", params: contracts.DeviceMediaParamsSchema, query: contracts.DeviceMediaQuerySchema, response: contracts.DeviceMediaResponseSchema },
    ({ user, params, query, req }) => media.list(db, user, params.device_id, query, req.url),
  );
  api.post(
    "/devices/:device_id/media",
    { summary: "Keep a photo the device's camera took (a JPEG or PNG as the multipart file part `file`)", params: contracts.DeviceMediaParamsSchema, body: contracts.DeviceMediaUploadBodySchema, response: contracts.DeviceMediaUploadResponseSchema },
    ({ user, params, body }) => media.upload(db, user, params.device_id, body, settings.deviceMediaKeep ?? contracts.DEVICE_MEDIA_KEEP),
  );
  // Declared with app: it answers an image, not a JSON body endpoints() would declare.
  app.get(
    "/devices/:device_id/media/file/:filename",
    {
      schema: {
        tags,
        summary: "One of the device's photos, under its content type",
        params: contracts.DeviceMediaFileParamsSchema,
        response: {
          200: imageAnswer("The photo", contracts.DeviceMediaImageSchema),
          ...contracts.FailureResponses,
        },
      },
    },
    async (req, reply) => {
      const photo = await media.file(db, currentUser(req), req.params.device_id, req.params.filename);
      return sendPrivateImage(reply, photo.contentType, photo.body);
    },
  );
  api.delete(
    "/devices/:device_id/media/file/:filename",
    { summary: "Delete one of the device's photos", params: contracts.DeviceMediaFileParamsSchema, response: contracts.DeviceMediaDeleteResponseSchema },
    ({ user, params }) => media.destroy(db, user, params.device_id, params.filename),
  );
};
