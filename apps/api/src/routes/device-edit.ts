import {
  type AddDeviceDataSchema,
  ChangeActiveDeviceQuerySchema,
  ChangeActiveDeviceResponseSchema,
  ChangeActiveDeviceSchema,
  DestroyDeviceResponseSchema,
  DeviceIdQuerySchema,
  EditDeviceBodySchema,
  EditDeviceDataResponseSchema,
  EditDeviceQuerySchema,
  EditDeviceResponseSchema,
  FailureResponses,
  detectEngineOptions,
  deviceIconIds,
  deviceIcons,
  engineHoursOptions,
  fuelMeasurementIds,
  fuelMeasurements,
  isActive,
  timezones,
  type ChangeActiveDevice,
  type EditDeviceBody,
  type EditDeviceItem,
} from "@fleet/contracts";
import {
  DuplicateImeiError,
  UnknownDeviceGroupError,
  UserGroup,
  destroyDevice,
  findUserDevice,
  listDeviceGroups,
  listUsers,
  setDevicesActive,
  updateDevice,
  type Db,
  type DeviceOwners,
  type UpdateDeviceInput,
  type User,
  type UserDeviceRecord,
} from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Static } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { deviceData } from "../lib/live-item.js";
import { notFound } from "../lib/not-found.js";
import { currentUser } from "../plugins/app/auth.js";

/** The option lists of the device form, shared by `add_device_data` and `edit_device_data`. */
export async function deviceFormOptions(db: Db, user: User): Promise<Static<typeof AddDeviceDataSchema>> {
  const groups = await listDeviceGroups(db, user.id);
  const users = user.groupId === UserGroup.administrator ? await listUsers(db) : [];
  return {
    device_groups: [{ id: 0, value: "Ungrouped" }, ...groups.map((g) => ({ id: g.id, value: g.title }))],
    sensor_groups: [{ id: 0, value: "None" }],
    device_fuel_measurements: fuelMeasurements,
    device_icons: deviceIcons,
    users: users.map((u) => ({ id: u.id, email: u.email })),
    timezones: [{ id: 0, value: "Default" }, ...timezones],
    expiration_date_select: { "1": "Set expiration date", "0000-00-00": "No expiration date" },
    status: 1 as const,
  };
}

function editItem(d: UserDeviceRecord, user: User): EditDeviceItem {
  return { ...deviceData(d, user), additional_notes: d.additionalNotes, device_icons_type: d.deviceIconsType, icon_colors: { ...d.iconColors } };
}

/** Ids the catalogues do not hold; the schema only knows they are integers. */
function catalogueErrors(b: EditDeviceBody): Record<string, string> {
  const errors: Record<string, string> = {};
  if (b.icon_id !== undefined && !deviceIconIds.has(b.icon_id)) errors.icon_id = "The selected icon id is invalid.";
  if (b.fuel_measurement_id !== undefined && !fuelMeasurementIds.has(b.fuel_measurement_id)) errors.fuel_measurement_id = "The selected fuel measurement id is invalid.";
  return errors;
}

function toUpdate(b: EditDeviceBody): UpdateDeviceInput {
  return {
    name: b.name,
    imei: b.imei,
    iconId: b.icon_id,
    fuelMeasurementId: b.fuel_measurement_id,
    tailLength: b.tail_length,
    tailColor: b.tail_color,
    minMovingSpeed: b.min_moving_speed,
    minFuelFillings: b.min_fuel_fillings,
    minFuelThefts: b.min_fuel_thefts,
    fuelQuantity: b.fuel_quantity,
    fuelPrice: b.fuel_price,
    deviceIconsType: b.device_icons_type,
    simNumber: b.sim_number,
    vin: b.vin,
    deviceModel: b.device_model,
    plateNumber: b.plate_number,
    registrationNumber: b.registration_number,
    objectOwner: b.object_owner,
    additionalNotes: b.additional_notes,
    engineHours: b.engine_hours,
    detectEngine: b.detect_engine,
    iconColors: { moving: b.icon_moving, stopped: b.icon_stopped, offline: b.icon_offline, engine: b.icon_engine },
    // 0 is add_device_data's "Ungrouped".
    groupId: b.group_id === undefined ? undefined : b.group_id || null,
    timezoneId: b.timezone_id,
  };
}

/**
 * preValidation for POST routes whose fields may come in the query instead: copies them
 * into the body, so the body schema checks the request as a whole. Given in both places
 * with different values is a 422 (as add_sensor and add_service answer), not a silent
 * pick of one. A body that is not an object is left to fail.
 */
function queryIntoBody(keys: readonly string[]) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    const present = keys.filter((k) => query[k] !== undefined);
    if (present.length === 0) return;
    // No body at all (everything in the query) is fine; `null` or an array is not.
    if (req.body === undefined) req.body = {};
    if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) return;
    const body = req.body as Record<string, unknown>;
    const clashes = present.filter((k) => body[k] !== undefined && JSON.stringify(body[k]) !== JSON.stringify(query[k]) && String(body[k]) !== String(query[k]));
    if (clashes.length > 0) {
      return reply.code(422).send({ status: 0, errors: Object.fromEntries(clashes.map((k) => [k, `The ${k.replaceAll("_", " ")} in the query and in the body differ.`])) });
    }
    for (const k of present) body[k] = query[k];
  };
}

export const deviceEditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;
  // Every user of a device sees its record, so every one of their polls must pick it up
  // (the queries return all owners, not only the caller).
  const markChanged = (owners: readonly DeviceOwners[]) => live.markChanged(owners);

  app.get(
    "/edit_device_data",
    {
      schema: {
        tags: ["Device"],
        summary: "add_device_data's option lists plus the device to edit",
        querystring: DeviceIdQuerySchema,
        response: { 200: EditDeviceDataResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const device = await findUserDevice(db, user.id, req.query.device_id);
      if (!device) return notFound(reply, "Device");
      return { ...(await deviceFormOptions(db, user)), item: editItem(device, user), engine_hours: engineHoursOptions, detect_engine: detectEngineOptions };
    },
  );

  app.post(
    "/edit_device",
    {
      schema: {
        tags: ["Device"],
        summary: "Edit a device; omitted fields stay as they are",
        querystring: EditDeviceQuerySchema,
        body: EditDeviceBodySchema,
        response: { 200: EditDeviceResponseSchema, ...FailureResponses },
      },
      preValidation: queryIntoBody(["device_id"]),
    },
    async (req, reply) => {
      const user = currentUser(req);
      const b = req.body;
      const errors = catalogueErrors(b);
      if (Object.keys(errors).length > 0) return reply.code(422).send({ status: 0, errors });
      try {
        const result = await updateDevice(db, user.id, b.device_id, toUpdate(b));
        if (!result) return notFound(reply, "Device");
        await markChanged([result.owners]);
        return { status: 1 as const };
      } catch (err) {
        if (err instanceof DuplicateImeiError) return reply.code(422).send({ status: 0, errors: { imei: "The imei has already been taken." } });
        if (err instanceof UnknownDeviceGroupError) return reply.code(422).send({ status: 0, errors: { group_id: "The selected group id is invalid." } });
        throw err;
      }
    },
  );

  app.get(
    "/destroy_device",
    {
      schema: {
        tags: ["Device"],
        summary: "Remove a device from the account; deleted once no user has it",
        querystring: DeviceIdQuerySchema,
        response: { 200: DestroyDeviceResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const result = await destroyDevice(db, user.id, req.query.device_id);
      if (!result) return notFound(reply, "Device");
      await markChanged([result.owners]);
      // No one can see a deleted device's state again; a new device with its IMEI gets a new id.
      if (result.deleted) await live.deleteStates([result.owners.deviceId]);
      return { status: 1 as const };
    },
  );

  const changeActive = async (user: User, input: ChangeActiveDevice, reply: FastifyReply) => {
    const ids = Array.isArray(input.id) ? input.id : [input.id];
    const owners = await setDevicesActive(db, user.id, ids, isActive(input.active));
    if (!owners) return notFound(reply, "Device");
    await markChanged(owners);
    return { status: 1 as const };
  };
  const changeActiveSchema = { tags: ["Device"], summary: "Set the user's active flag on one or more devices, all or nothing" };

  // GET as the vendor documents it; fastify reads no GET body, so body clients use POST.
  app.get(
    "/change_active_device",
    { schema: { ...changeActiveSchema, querystring: ChangeActiveDeviceSchema, response: { 200: ChangeActiveDeviceResponseSchema, ...FailureResponses } } },
    async (req, reply) => changeActive(currentUser(req), req.query, reply),
  );
  app.post(
    "/change_active_device",
    {
      schema: {
        ...changeActiveSchema,
        querystring: ChangeActiveDeviceQuerySchema,
        body: ChangeActiveDeviceSchema,
        response: { 200: ChangeActiveDeviceResponseSchema, ...FailureResponses },
      },
      preValidation: queryIntoBody(["id", "active"]),
    },
    async (req, reply) => changeActive(currentUser(req), req.body, reply),
  );
};
