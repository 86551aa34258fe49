import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { TSchema } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { GroupBody, GroupDomain } from "../domain/groups.js";
import { currentUser } from "../plugins/app/auth.js";
import { endpoints } from "./endpoints.js";

/** One kind of the vendor's groups, as its routes declare it. */
export interface GroupRoutesSpec {
  /** The vendor's path: `devices_groups`. */
  path: string;
  tags: string[];
  /** What the members are, for the summaries: `devices`. */
  noun: string;
  /** The request's name for the members: `devices`. */
  members: string;
  query: TSchema;
  store: TSchema;
  update: TSchema;
  domain: GroupDomain;
}

/**
 * The routes of one kind of group: the list, store and update the vendor's swagger shows
 * (update as PUT, its method, and POST, the method of every other edit and of HTML forms),
 * and a destroy it does not show. Each kind registers its own plugin, so the hook that
 * reads a form's empty member list stays with that kind's routes.
 */
export function groupRoutes(spec: GroupRoutesSpec): FastifyPluginAsyncTypebox {
  const { path, tags, noun, members, domain } = spec;

  /** A form cannot send an empty array; `<members>=` (empty) is how it says "none". */
  async function emptyMembersAsList(req: FastifyRequest) {
    const body = req.body as Record<string, unknown> | null | undefined;
    if (body && typeof body === "object" && body[members] === "") body[members] = [];
  }

  return async (app) => {
    const { db } = app.services;
    const api = endpoints(app, tags);
    app.addHook("preValidation", emptyMembersAsList);
    const idRoute = { params: contracts.GroupIdParamsSchema, response: { 200: contracts.GeoCreatedSchema, ...contracts.FailureResponses } };
    type Id = { id: number };

    api.get(
      `/${path}`,
      { summary: `A page of the user's ${noun} groups, searched, filtered and sorted as the query says`, query: spec.query, response: contracts.GroupsResponseSchema },
      ({ user, query, req }) => domain.list(db, user, query as contracts.GroupsQuery, req.url),
    );
    api.post(`/${path}/store`, { summary: `Create a ${noun} group; the listed ${members} move into it`, body: spec.store, response: contracts.GeoCreatedSchema }, ({ user, body }) =>
      domain.store(db, user, body as GroupBody<string> & { title: string }),
    );
    // endpoints() declares no path parameters, so the two routes with an id in the path are declared here.
    app.route({
      method: ["PUT", "POST"],
      url: `/${path}/update/:id`,
      schema: {
        tags,
        summary: `Rename a ${noun} group and/or replace its ${members} (those left out become ungrouped); fields left out keep their values`,
        body: spec.update,
        ...idRoute,
      },
      handler: (req) => domain.update(db, currentUser(req), (req.params as Id).id, req.body as GroupBody<string>),
    });
    app.get(`/${path}/destroy/:id`, { schema: { tags, summary: `Delete a ${noun} group; its ${members} become ungrouped`, ...idRoute } }, (req) =>
      domain.destroy(db, currentUser(req), (req.params as Id).id),
    );
  };
}
