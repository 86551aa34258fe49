import { createGeofenceGroup, destroyGeofenceGroup, pageUserGeofenceGroups, updateGeofenceGroup } from "@fleet/db";
import { groupDomain } from "./groups.js";

/* The vendor's geofence groups: the groups of ./groups.ts, whose members are the user's geofences. */

export { groupRecord } from "./groups.js";

export const { list, store, update, destroy } = groupDomain({
  what: "Geofence group",
  members: "geofences",
  memberKey: "geofenceIds",
  queries: {
    page: pageUserGeofenceGroups,
    create: (db, userId, title, geofenceIds) => createGeofenceGroup(db, userId, { title, geofenceIds }),
    update: (db, userId, id, title, geofenceIds) => updateGeofenceGroup(db, userId, id, { title, geofenceIds }),
    destroy: destroyGeofenceGroup,
  },
});
