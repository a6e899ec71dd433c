// HTTP routes of the groups directory.
import { Elysia } from "elysia";
import { avatarResponse } from "../core/avatar";
import type { ActorContext } from "../core/http";
import { groupSearchQuery } from "./model";
import type { GroupsService } from "./service";

const tags = ["Groups"];

export const groupsRoutes = (http: ActorContext, groups: GroupsService) =>
  new Elysia({ prefix: "/api/groups" })
    .use(http)
    .get("", async ({ actor, query }) => await groups.searchGroups(actor, query), {
      query: groupSearchQuery,
      detail: { summary: "Search groups (signed-in callers; at most 10 hits)", tags },
    })
    .get("/:id", async ({ actor, params }) => await groups.readGroup(actor, params.id), {
      detail: { summary: "Read a group by id or name", tags },
    })
    .get("/:id/avatar.svg", async ({ actor, params, request }) => avatarResponse(await groups.readGroupAvatar(actor, params.id), request.headers.get("if-none-match"), "public"), {
      detail: { summary: "A group's generated avatar", tags },
    });
