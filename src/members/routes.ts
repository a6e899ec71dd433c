// HTTP routes of community members, invitations and membership requests. Paths sit below
// /api/communities/:id with the same parameter name as the community and requests routes, so the
// plugins share one router without clashing.
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { queryParams } from "../core/links";
import { memberSearchQuery } from "./model";
import type { MembersService } from "./service";

const tags = ["Community members"];

/** Writes answer 204 with no body (the spec), once the service call (the argument) has finished; a throw answers instead. */
const noContent = async (set: { status?: number | string }, written: Promise<void>) => {
  await written;
  set.status = 204;
  return null;
};

export const membersRoutes = (http: ActorContext, members: MembersService) =>
  new Elysia({ prefix: "/api/communities/:id" })
    .use(http)
    .get("/members", async ({ actor, params, request }) => await members.searchMembers(actor, params.id, queryParams(request.url)), {
      query: memberSearchQuery,
      detail: { summary: "Search a community's members (its members and administrators)", tags },
    })
    .get("/members/public", async ({ actor, params, request }) => await members.searchPublicMembers(actor, params.id, queryParams(request.url)), {
      query: memberSearchQuery,
      detail: { summary: "Search a community's visible members (anyone who may see the community)", tags },
    })
    .post("/members", ({ actor, params, body, set }) => noContent(set, members.addMembers(actor, params.id, body)), {
      detail: { summary: "Add groups as members (users are invited)", tags },
    })
    .put("/members", ({ actor, params, body, set }) => noContent(set, members.updateMembers(actor, params.id, body)), {
      detail: { summary: "Change the role and/or visibility of members", tags },
    })
    .delete("/members", ({ actor, params, body, set }) => noContent(set, members.removeMembers(actor, params.id, body)), {
      detail: { summary: "Remove members, or leave the community", tags },
    })
    .get("/invitations", async ({ actor, params, request }) => await members.searchInvitations(actor, params.id, queryParams(request.url)), {
      query: memberSearchQuery,
      detail: { summary: "Search a community's invitations (managers and owners)", tags },
    })
    .post("/invitations", ({ actor, params, body, set }) => noContent(set, members.inviteMembers(actor, params.id, body)), {
      detail: { summary: "Invite users (one community-invitation request each)", tags },
    })
    .put("/invitations", ({ actor, params, body, set }) => noContent(set, members.updateInvitations(actor, params.id, body)), {
      detail: { summary: "Change the role open invitations offer", tags },
    })
    .get("/membership-requests", async ({ actor, params, request }) => await members.searchMembershipRequests(actor, params.id, queryParams(request.url)), {
      query: memberSearchQuery,
      detail: { summary: "Search the requests to join a community (managers and owners)", tags },
    })
    .post(
      "/membership-requests",
      async ({ actor, params, body, set }) => {
        set.status = 201;
        return await members.requestMembership(actor, params.id, body);
      },
      { detail: { summary: "Ask to join a community whose member policy is open", tags } },
    )
    .put("/membership-requests", ({ actor, params, body, set }) => noContent(set, members.updateMembershipRequests(actor, params.id, body)), {
      detail: { summary: "Change the role open membership requests would give", tags },
    });
