import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevice, createUser, createUserSensor, deleteUserSensor, openDb, updateUserSensor, type DbHandle, type SensorValues } from "@fleet/db";
import { tempPglite, uniqueSuffix } from "@fleet/testkit";
import { dbDeviceSource } from "./device-source.js";

const onOff = (type: "ignition" | "acc" | "engine", tagName: string): SensorValues => ({ name: type, type, tagName, onValue: "1", offValue: "0" });

describe("dbDeviceSource", () => {
  let handle: DbHandle;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const tmp = await tempPglite();
    cleanup = tmp.cleanup;
    handle = await openDb({ dataDir: tmp.dataDir });
    await handle.migrate();
  });
  afterAll(async () => {
    await handle.close();
    await cleanup();
  });

  async function newDevice(detectEngine: string) {
    const user = await createUser(handle.db, { email: `t-${uniqueSuffix()}@example.com`, password: "pw-123456" });
    const imei = `imei-${uniqueSuffix()}`;
    const d = await createDevice(handle.db, user.id, { name: "car", imei, iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 7, minFuelFillings: 10, minFuelThefts: 10, detectEngine });
    return { user, device: d, imei };
  }

  it("loads a device with its detect_engine and the first sensor of that type", async () => {
    const { user, device, imei } = await newDevice("acc");
    await createUserSensor(handle.db, user.id, device.id, onOff("ignition", "ignition"));
    await createUserSensor(handle.db, user.id, device.id, onOff("acc", "io1"));
    await createUserSensor(handle.db, user.id, device.id, onOff("acc", "io2"));
    const found = await dbDeviceSource(handle.db).findByImei(imei);
    expect(found).toEqual({
      id: device.id,
      imei,
      userIds: [user.id],
      minMovingSpeed: 7,
      detectEngine: "acc",
      engineSensor: { type: "acc", tagName: "io1", onValue: "1", offValue: "0" },
    });
  });

  it("has no engine sensor for gps, or without a sensor of the type", async () => {
    const gps = await newDevice("gps");
    await createUserSensor(handle.db, gps.user.id, gps.device.id, onOff("ignition", "ignition"));
    expect((await dbDeviceSource(handle.db).findByImei(gps.imei))?.engineSensor).toBeNull();
    const engine = await newDevice("engine");
    await createUserSensor(handle.db, engine.user.id, engine.device.id, onOff("ignition", "ignition"));
    expect((await dbDeviceSource(handle.db).findByImei(engine.imei))).toMatchObject({ detectEngine: "engine", engineSensor: null });
  });

  it("reports a sensor change with the device in the next sync", async () => {
    const { user, device } = await newDevice("ignition");
    const source = dbDeviceSource(handle.db);
    const since = new Date(Date.now() - 1000);
    const added = await createUserSensor(handle.db, user.id, device.id, onOff("ignition", "ign"));
    const mine = async (from: Date) => (await source.changedSince(from)).devices.find((d) => d.id === device.id);
    expect((await mine(since))?.engineSensor).toEqual({ type: "ignition", tagName: "ign", onValue: "1", offValue: "0" });

    const beforeEdit = new Date();
    await updateUserSensor(handle.db, user.id, added!.id, { ...onOff("ignition", "key"), onValue: "on", offValue: "off" });
    expect((await mine(beforeEdit))?.engineSensor).toEqual({ type: "ignition", tagName: "key", onValue: "on", offValue: "off" });

    const beforeDelete = new Date();
    await deleteUserSensor(handle.db, user.id, added!.id);
    expect(await mine(beforeDelete)).toMatchObject({ removed: false, engineSensor: null });
  });
});
