import * as contracts from "@fleet/contracts";
import { deviceGroups } from "../domain/groups.js";
import { groupRoutes } from "../lib/group-routes.js";

/** devices_groups: the groups get_devices lists the user's devices by. */
export const deviceGroupRoutes = groupRoutes({
  path: "devices_groups",
  tags: ["Device"],
  noun: "device",
  members: "devices",
  query: contracts.GroupsQuerySchema,
  store: contracts.StoreDeviceGroupBodySchema,
  update: contracts.UpdateDeviceGroupBodySchema,
  domain: deviceGroups,
});
