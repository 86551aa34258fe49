import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as devices from "../domain/devices.js";
import { blankQueryAsMissing } from "../lib/blank-query.js";
import { OK, endpoints } from "../lib/endpoints.js";
import { nativeJson } from "../lib/native-json.js";
import { queryIntoBody } from "../lib/query-into-body.js";

export const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;
  const api = endpoints(app, ["Device"]);
  // edit_device's device_id, and change_active_device's id and active, may come in the POST's query.
  app.addHook("preValidation", queryIntoBody);
  // A first poll may send `time=`: the whole list, as without one. onRequest: before the
  // integer check of the input rules, which runs at preValidation from the root.
  app.addHook("onRequest", blankQueryAsMissing("time"));

  api.get("/add_device_data", { summary: "Option lists for add_device", response: contracts.AddDeviceDataSchema }, ({ user }) => devices.formOptions(db, user));
  api.post("/add_device", { summary: "Create a device", body: contracts.AddDeviceBodySchema, response: contracts.AddDeviceResponseSchema }, ({ user, body }) => devices.add(db, user, body));
  api.get("/get_devices", { summary: "The live device list, by group; filtered and paged as the query says", query: contracts.GetDevicesQuerySchema, response: contracts.GetDevicesResponseSchema, route: nativeJson }, ({ user, query }) => devices.liveList(app.services, user, query));
  api.get("/get_devices_latest", { summary: "Devices changed at or after `time` (unix seconds); send the returned `time` next", query: contracts.GetDevicesLatestQuerySchema, response: contracts.GetDevicesLatestResponseSchema, route: nativeJson }, ({ user, query }) => devices.latest(app.services, user, query.time, query.filter));
  api.get("/edit_device_data", { summary: "add_device_data's option lists plus the device to edit", query: contracts.DeviceIdQuerySchema, response: contracts.EditDeviceDataResponseSchema }, ({ user, query }) => devices.editData(db, user, query.device_id));
  api.post("/edit_device", { summary: "Edit a device; omitted fields stay as they are", query: contracts.EditDeviceQuerySchema, body: contracts.EditDeviceBodySchema, response: contracts.EditDeviceResponseSchema }, async ({ user, body }) => (await devices.edit(db, user, body), OK));
  api.get("/destroy_device", { summary: "Remove a device from the account; deleted once no user has it", query: contracts.DeviceIdQuerySchema, response: contracts.DestroyDeviceResponseSchema }, async ({ user, query }) => (await devices.destroy(db, live, user, query.device_id), OK));
  api.either("/change_active_device", { summary: "Set the user's active flag on one or more devices, all or nothing", input: contracts.ChangeActiveDeviceSchema, query: contracts.ChangeActiveDeviceQuerySchema, response: contracts.ChangeActiveDeviceResponseSchema }, async ({ user, input }) => (await devices.changeActive(db, user, input), OK));
};
