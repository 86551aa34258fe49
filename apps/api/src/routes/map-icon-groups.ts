import * as contracts from "@fleet/contracts";
import { poiGroups } from "../domain/groups.js";
import { groupRoutes } from "../lib/group-routes.js";

/** pois_groups: groups of the user's map icons (the vendor's POIs; their ids are get_user_map_icons'). */
export const mapIconGroupRoutes = groupRoutes({
  path: "pois_groups",
  tags: ["Map icon"],
  noun: "map icon",
  members: "pois",
  query: contracts.GroupsQuerySchema,
  store: contracts.StorePoiGroupBodySchema,
  update: contracts.UpdatePoiGroupBodySchema,
  domain: poiGroups,
});
