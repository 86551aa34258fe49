import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as services from "../domain/services.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const serviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;
  const api = endpoints(app, ["Service"]);

  api.get(
    "/add_service_data",
    { summary: "The device's counters and the expiration_by options, for add_service", query: contracts.ServiceDeviceQuerySchema, response: contracts.AddServiceDataResponseSchema },
    ({ user, query }) => services.addData(db, live, user, query.device_id),
  );
  api.post(
    "/add_service",
    { summary: "Create a maintenance service of a device (device_id in the query or the body)", query: contracts.AddServiceQuerySchema, body: contracts.AddServiceBodySchema, response: contracts.AddServiceResponseSchema },
    ({ user, query, body }) => services.add(db, user, query.device_id, body),
  );
  api.get(
    "/edit_service_data",
    {
      summary: "A service with its computed state, the device's counters and the expiration_by options, for edit_service",
      query: contracts.EditServiceDataQuerySchema,
      response: contracts.EditServiceDataResponseSchema,
    },
    ({ user, query }) => services.editData(db, live, user, query),
  );
  api.post(
    "/edit_service",
    { summary: "Replace a service's terms (the id plus every add_service field)", body: contracts.EditServiceBodySchema, response: contracts.ServiceOkResponseSchema },
    async ({ user, body }) => (await services.edit(db, user, body), OK),
  );
  api.get("/destroy_service", { summary: "Delete a service", query: contracts.ServiceIdQuerySchema, response: contracts.ServiceOkResponseSchema }, async ({ user, query }) => (await services.destroy(db, user, query.service_id), OK));
  api.get("/get_services", { summary: "A page of a device's services with their computed state", query: contracts.GetServicesQuerySchema, response: contracts.GetServicesResponseSchema }, ({ user, query, req }) =>
    services.list(db, live, user, query, req.url),
  );
};
