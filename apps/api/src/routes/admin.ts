import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import * as admin from "../domain/admin.js";
import * as adminClients from "../domain/admin-clients.js";
import * as adminDevices from "../domain/admin-devices.js";
import { OK, endpoints } from "../lib/endpoints.js";
import { currentUser } from "../plugins/app/auth.js";

// Every route here may answer 403 (see the preValidation hook below).
const failures = { 403: Type.Object({ status: Type.Literal(0), error: Type.String() }) };

/** Administrator-only routes; anyone else gets 403. */
export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, deadLetters, live, rulesNotices } = app.services;
  const deviceDeps: adminDevices.AdminDeviceDeps = { db, states: (ids) => live.getStates(ids) };
  const device = contracts.AdminDeviceParamsSchema;
  const deviceKey = contracts.AdminDeviceKeyParamsSchema;
  const client = contracts.AdminIdParamsSchema;
  // preValidation (after authenticate, before the body schema): a non-administrator gets
  // 403 whatever the body, rather than 422s that describe what the route accepts.
  app.addHook("preValidation", async (req) => {
    admin.assertAdministrator(currentUser(req));
    // A DELETE may name what it removes in a body or not at all (the query then does).
    if (req.method === "DELETE" && req.body === undefined) req.body = {};
  });
  const api = endpoints(app, ["Admin User"]);

  api.post("/admin/client", { summary: "Create a user", body: contracts.AdminClientBodySchema, response: contracts.AdminClientResponseSchema, failures }, ({ user, body }) => admin.createClient(db, user, body));
  api.get("/admin/clients", { summary: "List users", query: contracts.AdminClientsQuerySchema, response: contracts.AdminClientsResponseSchema, failures }, ({ user, query, req }) => admin.clients(db, user, query, req.url));
  api.put("/admin/client", { summary: "Change a client's account (`id`); fields left out keep their values, `objects` is the complete list of its devices", body: contracts.AdminClientUpdateBodySchema, response: contracts.GeoOkSchema, failures }, async ({ user, body }) => (await rulesNotices.afterUserWrite(body.id, adminClients.update(db, user, body)), OK));
  api.post("/admin/client/status", { summary: "Let a client (`id`, or `email`) sign in or not", body: contracts.AdminClientStatusBodySchema, response: contracts.GeoOkSchema, failures }, async ({ user, body }) => {
    // A client let in or shut out (its alerts fire only while it may sign in): the rules service reads it again.
    await rulesNotices.changed({ userIds: [await adminClients.setStatus(db, user, body)] });
    return OK;
  });
  api.delete("/admin/client/:id", { summary: "Delete a client; the devices only it had are deleted too", params: client, response: contracts.GeoOkSchema, failures }, async ({ user, params }) => (await adminClients.remove(db, user, [params.id]), OK));
  api.delete("/admin/clients", { summary: "Delete clients, all or none", body: contracts.AdminClientsDeleteBodySchema, response: contracts.GeoOkSchema, failures }, async ({ user, body }) => (await adminClients.remove(db, user, body.ids), OK));
  api.get("/admin/client/:id/devices", { summary: "A client's devices", params: client, query: contracts.AdminPageQuerySchema, response: contracts.AdminClientDevicesResponseSchema, failures }, ({ params, query, req }) =>
    adminDevices.clientDevices(db, params.id, query, req.url),
  );
  api.get("/admin/devices", { summary: "Every device of the platform, searched", query: contracts.AdminDevicesQuerySchema, response: contracts.AdminDevicesResponseSchema, failures }, ({ user, query, req }) => adminDevices.list(deviceDeps, user, query, req.url));
  api.get("/admin/device/:device", { summary: "A device of the platform, with its latest motion", params: device, response: contracts.AdminDeviceResponseSchema, failures }, ({ user, params }) => adminDevices.get(deviceDeps, user, params.device));
  api.post("/admin/device/:device/user", { summary: "Give a user (`user_id`, or `email`) the device (by id or IMEI)", params: deviceKey, body: contracts.AdminDeviceUserBodySchema, response: contracts.GeoOkSchema, failures }, async ({ params, body }) => (await adminDevices.assignUser(db, params.device, body), OK));
  api.delete(
    "/admin/device/:device/user",
    { summary: "Take the device (by id or IMEI) from a user (`user_id`, or `email`, in the query or a body); deleted when nobody else has it", params: deviceKey, query: contracts.AdminDeviceUserQuerySchema, body: contracts.AdminDeviceUserBodySchema, response: contracts.GeoOkSchema, failures },
    async ({ params, query, body }) => (await adminDevices.revokeUser(db, params.device, { ...query, ...body }), OK),
  );
  api.post("/admin/device/:device/status", { summary: "Turn a device (by id or IMEI) on or off for everyone who has it", params: deviceKey, body: contracts.AdminDeviceStatusBodySchema, response: contracts.GeoOkSchema, failures }, async ({ params, body }) => (await adminDevices.setActive(db, params.device, body.active), OK));
  api.post("/admin/device/:device/expiration", { summary: "Set when a device expires (unix seconds or a date; 0 or null for never)", params: device, body: contracts.AdminDeviceExpirationBodySchema, response: contracts.GeoOkSchema, failures }, async ({ user, params, body }) => (await adminDevices.setExpiration(db, user, params.device, body), OK));
  api.get("/admin/device/:device/users", { summary: "The users who have a device", params: device, query: contracts.AdminPageQuerySchema, response: contracts.AdminDeviceUsersResponseSchema, failures }, ({ params, query, req }) =>
    adminDevices.users(db, params.device, query, req.url),
  );
  api.get("/admin/unregistered_devices", { summary: "uniqueIds that sent positions but match no device", response: contracts.UnregisteredDevicesResponseSchema, failures }, ({ user }) => admin.unregistered(db, user));
  api.get(
    "/admin/dead_letters",
    { summary: "Messages a consumer could never process (positions.dead, events.dead)", query: contracts.DeadLettersQuerySchema, response: contracts.DeadLettersResponseSchema, failures },
    ({ user, query }) => admin.deadLetterList(deadLetters, user, query.topic),
  );
  api.post(
    "/admin/dead_letters/republish",
    { summary: "Send dead letters back to their topic after a fix", body: contracts.DeadLettersRepublishBodySchema, response: contracts.DeadLettersRepublishResponseSchema, failures },
    ({ body }) => admin.republish(deadLetters, body.topic, body.ids),
  );
};
