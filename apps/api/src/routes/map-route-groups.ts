import * as contracts from "@fleet/contracts";
import { routeGroups } from "../domain/groups.js";
import { groupRoutes } from "../lib/group-routes.js";

/** routes_groups: groups of the routes the user draws on the map (get_routes shows each route's group_id). */
export const mapRouteGroupRoutes = groupRoutes({
  path: "routes_groups",
  tags: ["Route"],
  noun: "route",
  members: "routes",
  query: contracts.GroupsQuerySchema,
  store: contracts.StoreRouteGroupBodySchema,
  update: contracts.UpdateRouteGroupBodySchema,
  domain: routeGroups,
});
