import * as contracts from "@fleet/contracts";
import * as groups from "../domain/geofence-groups.js";
import { groupRoutes } from "../lib/group-routes.js";

export const geofenceGroupRoutes = groupRoutes({
  path: "geofences_groups",
  tags: ["Geofence"],
  noun: "geofence",
  members: "geofences",
  query: contracts.GeofenceGroupsQuerySchema,
  store: contracts.StoreGeofenceGroupBodySchema,
  update: contracts.UpdateGeofenceGroupBodySchema,
  domain: groups,
});
