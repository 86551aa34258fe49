import { accountsGroup } from "./accounts.js";
import { addressesGroup } from "./addresses.js";
import { adminCompaniesGroup } from "./admin-companies.js";
import { adminDevicesGroup } from "./admin-devices.js";
import { alertsGroup } from "./alerts.js";
import { callActionsGroup } from "./call-actions.js";
import { commandsGroup } from "./commands.js";
import { deviceMediaGroup } from "./device-media.js";
import { eventsGroup } from "./events.js";
import { geoGroup } from "./geo.js";
import { groupsGroup } from "./groups.js";
import { historyGroup } from "./history.js";
import { historyMessagesGroup } from "./history-messages.js";
import { part1Group } from "./part1.js";
import { reportsGroup } from "./reports.js";
import { sharingGroup } from "./sharing.js";
import { tasksGroup } from "./tasks.js";
import type { MatrixGroup, Records } from "./types.js";

/** In seeding order: a group may use the records of the groups before it. */
export const GROUPS: MatrixGroup[] = [part1Group, geoGroup, groupsGroup, alertsGroup, commandsGroup, tasksGroup, deviceMediaGroup, reportsGroup, eventsGroup, historyGroup, historyMessagesGroup, accountsGroup, addressesGroup, sharingGroup, callActionsGroup, adminDevicesGroup, adminCompaniesGroup];
export type { MatrixGroup, Records } from "./types.js";

/** Every kind of record set to `id`: 0 before seeding, or an id that exists nowhere. */
export function noRecords(id: number): Records {
  const kinds = ["device", "driver", "sensor", "service", "group", "geofence", "geofenceGroup", "route", "routeGroup", "mapIcon", "mapIconGroup", "customEvent", "alert", "gprsTemplate", "smsTemplate", "task", "taskStatus", "report", "sharing", "callAction", "client", "company"] as const;
  return { ...Object.fromEntries(kinds.map((k) => [k, id])), media: String(id) } as unknown as Records;
}
