import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as drivers from "../domain/drivers.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const driverRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, rulesNotices } = app.services;
  // Driver alerts match RFID cards to drivers: each write tells the rules service.
  const api = endpoints(app, ["Driver"]);

  api.get("/get_user_drivers", { summary: "The user's drivers, a page at a time, by id", query: contracts.GetUserDriversQuerySchema, response: contracts.GetUserDriversResponseSchema }, ({ user, query, req }) =>
    drivers.list(db, user, query, req.url),
  );
  api.get("/add_user_driver_data", { summary: "Devices a new driver can be given", response: contracts.AddUserDriverDataResponseSchema }, ({ user }) => drivers.addData(db, user));
  api.post("/add_user_driver", { summary: "Create a driver; it becomes its device's current driver", body: contracts.AddUserDriverBodySchema, response: contracts.AddUserDriverResponseSchema }, ({ user, body }) =>
    rulesNotices.afterUserWrite(user.id, drivers.add(db, user, body)),
  );
  api.get("/edit_user_driver_data", { summary: "A driver and the devices it can be given", query: contracts.UserDriverIdQuerySchema, response: contracts.EditUserDriverDataResponseSchema }, ({ user, query }) =>
    drivers.editData(db, user, query.user_driver_id),
  );
  api.post(
    "/edit_user_driver",
    { summary: "Update a driver; it becomes its device's current driver, absent optional fields keep their values", body: contracts.EditUserDriverBodySchema, response: contracts.DriverChangedResponseSchema },
    async ({ user, body }) => (await rulesNotices.afterUserWrite(user.id, drivers.edit(db, user, body)), OK),
  );
  api.get(
    "/destroy_user_driver",
    { summary: "Delete a driver; devices it was driving have no current driver", query: contracts.UserDriverIdQuerySchema, response: contracts.DriverChangedResponseSchema },
    async ({ user, query }) => (await rulesNotices.afterUserWrite(user.id, drivers.destroy(db, user, query.user_driver_id)), OK),
  );
};
