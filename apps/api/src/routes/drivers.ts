import {
  AddUserDriverBodySchema,
  AddUserDriverDataResponseSchema,
  AddUserDriverResponseSchema,
  DriverChangedResponseSchema,
  EditUserDriverBodySchema,
  EditUserDriverDataResponseSchema,
  FailureResponses,
  GetUserDriversQuerySchema,
  GetUserDriversResponseSchema,
  UserDriverIdQuerySchema,
  formatDateTime,
  type AddUserDriverBody,
  type DriverRecord,
} from "@fleet/contracts";
import { UnknownDriverDeviceError, createDriver, destroyDriver, findUserDriver, listDriverDeviceChoices, listUserDrivers, updateDriver, type Db, type Driver, type DriverInput } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

function driverRecord(d: Driver, timezoneId: number): DriverRecord {
  return {
    id: d.id,
    user_id: d.userId,
    ...(d.deviceId === null ? {} : { device_id: d.deviceId }),
    device_port: null,
    name: d.name,
    rfid: d.rfid,
    phone: d.phone,
    email: d.email,
    description: d.description,
    created_at: formatDateTime(d.createdAt.getTime(), timezoneId),
    updated_at: formatDateTime(d.updatedAt.getTime(), timezoneId),
  };
}

function driverInput(b: AddUserDriverBody): DriverInput {
  return { deviceId: b.device_id, name: b.name, rfid: b.rfid, phone: b.phone, email: b.email, description: b.description };
}

/** The `devices` map of the *_data endpoints; keys are ids as text, as JSON objects have them. */
async function deviceChoices(db: Db, userId: number): Promise<Record<string, string>> {
  return Object.fromEntries([...(await listDriverDeviceChoices(db, userId))].map(([id, name]) => [String(id), name]));
}

function unknownDevice(reply: FastifyReply) {
  return reply.code(422).send({ status: 0 as const, errors: { device_id: "The selected device id is invalid." } });
}

export const driverRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;
  const tags = ["Driver"];

  /** Pollers of the live list see a changed driver only when its devices are marked. */
  const markDevices = (userId: number, deviceIds: readonly number[]) => live.markChanged(deviceIds.map((deviceId) => ({ deviceId, userIds: [userId] })));

  app.get(
    "/get_user_drivers",
    { schema: { tags, summary: "The user's drivers, a page at a time, by id", querystring: GetUserDriversQuerySchema, response: { 200: GetUserDriversResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const page = pageRequest(req.query);
      const { total, drivers } = await listUserDrivers(db, user.id, pageWindow(page));
      const data = drivers.map((d) => driverRecord(d, user.timezoneId));
      return { items: { drivers: paginate(req, page, total, data) }, status: 1 as const };
    },
  );

  app.get("/add_user_driver_data", { schema: { tags, summary: "Devices a new driver can be given", response: { 200: AddUserDriverDataResponseSchema, ...FailureResponses } } }, async (req) => {
    return { devices: await deviceChoices(db, currentUser(req).id), status: 1 as const };
  });

  app.post(
    "/add_user_driver",
    { schema: { tags, summary: "Create a driver; it becomes its device's current driver", body: AddUserDriverBodySchema, response: { 200: AddUserDriverResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      try {
        const { driver, changedDeviceIds } = await createDriver(db, user.id, driverInput(req.body));
        await markDevices(user.id, changedDeviceIds);
        const r = driverRecord(driver, user.timezoneId);
        return { status: 1 as const, item: { name: r.name, user_id: r.user_id, updated_at: r.updated_at, created_at: r.created_at, id: r.id } };
      } catch (err) {
        if (err instanceof UnknownDriverDeviceError) return unknownDevice(reply);
        throw err;
      }
    },
  );

  app.get(
    "/edit_user_driver_data",
    { schema: { tags, summary: "A driver and the devices it can be given", querystring: UserDriverIdQuerySchema, response: { 200: EditUserDriverDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const driver = await findUserDriver(db, user.id, req.query.user_driver_id);
      if (!driver) return notFound(reply, "Driver");
      return { item: driverRecord(driver, user.timezoneId), devices: await deviceChoices(db, user.id), status: 1 as const };
    },
  );

  app.post(
    "/edit_user_driver",
    {
      schema: {
        tags,
        summary: "Update a driver; it becomes its device's current driver, absent optional fields keep their values",
        body: EditUserDriverBodySchema,
        response: { 200: DriverChangedResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      try {
        const updated = await updateDriver(db, user.id, req.body.id, driverInput(req.body));
        if (!updated) return notFound(reply, "Driver");
        await markDevices(user.id, updated.changedDeviceIds);
        return { status: 1 as const };
      } catch (err) {
        if (err instanceof UnknownDriverDeviceError) return unknownDevice(reply);
        throw err;
      }
    },
  );

  app.get(
    "/destroy_user_driver",
    { schema: { tags, summary: "Delete a driver; devices it was driving have no current driver", querystring: UserDriverIdQuerySchema, response: { 200: DriverChangedResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const destroyed = await destroyDriver(db, user.id, req.query.user_driver_id);
      if (!destroyed) return notFound(reply, "Driver");
      await markDevices(user.id, destroyed.changedDeviceIds);
      return { status: 1 as const };
    },
  );
};
