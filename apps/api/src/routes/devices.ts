import {
  AddDeviceBodySchema,
  AddDeviceDataSchema,
  AddDeviceResponseSchema,
  FailureResponses,
  GetDevicesLatestQuerySchema,
  GetDevicesLatestResponseSchema,
  GetDevicesResponseSchema,
  deviceIconIds,
  fuelMeasurementIds,
} from "@fleet/contracts";
import { DevicesLimitError, DuplicateImeiError, UnknownDeviceGroupError, createDevice, listDeviceGroups, listUserDevices } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { CHANGE_RETENTION_MS } from "@fleet/live";
import { loadLiveExtras } from "../lib/live-extras.js";
import { liveItem } from "../lib/live-item.js";
import { currentUser } from "../plugins/app/auth.js";
import { deviceFormOptions } from "./device-edit.js";

export const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live, settings } = app.services;

  app.get("/add_device_data", { schema: { tags: ["Device"], summary: "Option lists for add_device", response: { 200: AddDeviceDataSchema, ...FailureResponses } } }, async (req) =>
    deviceFormOptions(db, currentUser(req)),
  );

  app.post(
    "/add_device",
    { schema: { tags: ["Device"], summary: "Create a device", body: AddDeviceBodySchema, response: { 200: AddDeviceResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const b = req.body;
      const errors: Record<string, string> = {};
      if (!deviceIconIds.has(b.icon_id)) errors.icon_id = "The selected icon id is invalid.";
      if (!fuelMeasurementIds.has(b.fuel_measurement_id)) errors.fuel_measurement_id = "The selected fuel measurement id is invalid.";
      if (Object.keys(errors).length > 0) return reply.code(422).send({ status: 0, errors });
      try {
        const device = await createDevice(db, user.id, {
          name: b.name,
          imei: b.imei,
          iconId: b.icon_id,
          fuelMeasurementId: b.fuel_measurement_id,
          tailLength: b.tail_length,
          minMovingSpeed: b.min_moving_speed,
          minFuelFillings: b.min_fuel_fillings,
          minFuelThefts: b.min_fuel_thefts,
          fuelQuantity: b.fuel_quantity ?? 0,
          fuelPrice: b.fuel_price ?? 0,
          groupId: b.group_id ? b.group_id : null,
          deviceIconsType: b.device_icons_type ?? "icon",
          // 0 is the spec's default ("the user's timezone"), stored as no choice.
          timezoneId: b.timezone_id ? b.timezone_id : null,
          iconColors: { moving: b.icon_moving ?? "green", stopped: b.icon_stopped ?? "red", offline: b.icon_offline ?? "red", engine: b.icon_engine ?? "yellow" },
          simNumber: b.sim_number ?? "",
          vin: b.vin ?? "",
          deviceModel: b.device_model ?? "",
          plateNumber: b.plate_number ?? "",
          registrationNumber: b.registration_number ?? "",
          objectOwner: b.object_owner ?? "",
          additionalNotes: b.additional_notes ?? "",
        }, { devicesLimit: user.devicesLimit });
        await live.markChanged([{ deviceId: device.id, userIds: [user.id] }]);
        return { status: 1 as const, id: device.id };
      } catch (err) {
        if (err instanceof DevicesLimitError) return reply.code(422).send({ status: 0, errors: { imei: `Your account may hold at most ${err.limit} devices.` } });
        if (err instanceof DuplicateImeiError) return reply.code(422).send({ status: 0, errors: { imei: "The imei has already been taken." } });
        if (err instanceof UnknownDeviceGroupError) return reply.code(422).send({ status: 0, errors: { group_id: "The selected group id is invalid." } });
        throw err;
      }
    },
  );

  app.get("/get_devices", { schema: { tags: ["Device"], summary: "The live device list, by group", response: { 200: GetDevicesResponseSchema, ...FailureResponses } } }, async (req) => {
    const user = currentUser(req);
    const [devices, groups] = await Promise.all([listUserDevices(db, user.id), listDeviceGroups(db, user.id)]);
    const states = await live.getStates(devices.map((d) => d.id));
    const extras = await loadLiveExtras(db, user, devices, states);
    const ctx = { user, now: Date.now(), offlineAfterMs: settings.offlineAfterMs };
    const byGroup = new Map<number, { id: number; title: string; items: ReturnType<typeof liveItem>[] }>();
    byGroup.set(0, { id: 0, title: "Ungrouped", items: [] });
    for (const g of groups) byGroup.set(g.id, { id: g.id, title: g.title, items: [] });
    for (const d of devices) byGroup.get(d.pivot.groupId ?? 0)?.items.push(liveItem(d, states.get(d.id), ctx, extras.get(d.id)));
    return [...byGroup.values()].filter((g) => g.items.length > 0);
  });

  app.get(
    "/get_devices_latest",
    {
      schema: {
        tags: ["Device"],
        summary: "Devices changed at or after `time` (unix seconds); send the returned `time` next",
        querystring: GetDevicesLatestQuerySchema,
        response: { 200: GetDevicesLatestResponseSchema, ...FailureResponses },
      },
    },
    async (req) => {
      const user = currentUser(req);
      const since = req.query.time === undefined ? 0 : req.query.time * 1000;
      // The store's clock is read with the index, so a change after this read is stamped
      // at or after `now`, and asking again from floor(now) cannot miss it.
      const { deviceIds, now } = await live.changedSince(user.id, since);
      // The change index keeps CHANGE_RETENTION_MS: a poll from further back than that
      // could miss a change the index has forgotten, so it gets every device instead.
      const complete = req.query.time !== undefined && since >= now - CHANGE_RETENTION_MS;
      const wanted = complete ? new Set(deviceIds) : undefined;
      const devices = (await listUserDevices(db, user.id)).filter((d) => !wanted || wanted.has(d.id));
      const states = await live.getStates(devices.map((d) => d.id));
      const extras = await loadLiveExtras(db, user, devices, states);
      const ctx = { user, now: Date.now(), offlineAfterMs: settings.offlineAfterMs };
      const items = devices.map((d) => {
        const item = liveItem(d, states.get(d.id), ctx, extras.get(d.id));
        return { ...item, sensors: JSON.stringify(item.sensors), services: JSON.stringify(item.services), tail: JSON.stringify(item.tail) };
      });
      return { items, events: [], time: Math.floor(now / 1000), version: settings.version };
    },
  );
};
