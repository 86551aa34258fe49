import type { DeviceListFilter, LiveDeviceItem } from "@fleet/contracts";
import type { UserDeviceRecord } from "@fleet/db";

/*
 * The live list's filters (get_devices' query, get_devices_latest's filter[...]). What a
 * device's record tells is checked before its state is read; status and how recently it
 * reported are checked on the item, which holds both.
 */

const MINUTE = 60_000;

export interface ListFilter {
  /** Whether a device's own fields pass. */
  record(device: UserDeviceRecord): boolean;
  /** Filters that need the device's state; without them every item passes. */
  readonly byState: boolean;
  /** Whether an item passes its state's filters, at `now` on the store's clock. */
  item(item: LiveDeviceItem, now: number): boolean;
}

const given = <T>(v: T | "" | undefined): v is T => v !== undefined && v !== "";

/** The record's fields `s` is looked for in. */
const SEARCHED = ["name", "imei", "simNumber", "vin", "plateNumber", "registrationNumber", "objectOwner", "deviceModel"] as const satisfies readonly (keyof UserDeviceRecord)[];

export function listFilter(f: DeviceListFilter | undefined): ListFilter {
  const exact: [keyof UserDeviceRecord, string][] = [];
  const text = (field: keyof UserDeviceRecord, v: string | undefined) => {
    if (given(v)) exact.push([field, v]);
  };
  text("imei", f?.imei);
  text("simNumber", f?.sim_number);
  // The MSISDN is the SIM's phone number, which the device keeps as sim_number.
  text("simNumber", f?.msisdn);
  text("vin", f?.vin);
  text("plateNumber", f?.plate_number);
  text("registrationNumber", f?.registration_number);
  text("objectOwner", f?.object_owner);
  text("deviceModel", f?.device_model);
  const search = given(f?.s) ? f.s.trim().toLowerCase() : "";
  const id = f?.id;
  const groupId = f?.group_id;
  const statuses = f?.status === undefined ? [] : (Array.isArray(f.status) ? f.status : [f.status]).filter((s) => s !== "");
  const online = f?.online;
  const offline = f?.offline;
  return {
    record(d) {
      if (given(id) && d.id !== id) return false;
      // 0 is "Ungrouped", as get_devices titles it.
      if (given(groupId) && (d.pivot.groupId ?? 0) !== groupId) return false;
      if (!exact.every(([field, v]) => d[field] === v)) return false;
      return search === "" || SEARCHED.some((field) => (d[field] as string).toLowerCase().includes(search));
    },
    byState: statuses.length > 0 || given(online) || given(offline),
    item(item, now) {
      if (statuses.length > 0 && !statuses.includes(item.online)) return false;
      // acktimestamp is the last report's server time (0: never reported).
      const reportedAgo = item.acktimestamp > 0 ? now - item.acktimestamp * 1000 : Infinity;
      if (given(online) && reportedAgo > online * MINUTE) return false;
      if (given(offline) && reportedAgo < offline * MINUTE) return false;
      return true;
    },
  };
}
