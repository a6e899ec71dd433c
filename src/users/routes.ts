// HTTP routes of the users directory.
import { Elysia } from "elysia";
import { avatarResponse } from "../core/avatar";
import type { ActorContext } from "../core/http";
import { userSearchQuery } from "./model";
import type { UsersService } from "./service";

const tags = ["Users"];

export const usersRoutes = (http: ActorContext, users: UsersService) =>
  new Elysia({ prefix: "/api/users" })
    .use(http)
    .get("", ({ actor, query }) => users.searchUsers(actor, query), {
      query: userSearchQuery,
      detail: { summary: "Search users (signed-in callers; at most 10 hits)", tags },
    })
    .get("/:id", ({ actor, params }) => users.readUser(actor, params.id), {
      detail: { summary: "Read a user's profile", tags },
    })
    // Private caching: whether the avatar is served at all depends on who asks.
    .get("/:id/avatar.svg", async ({ actor, params, request }) => avatarResponse(await users.readUserAvatar(actor, params.id), request.headers.get("if-none-match"), "private"), {
      detail: { summary: "A user's generated avatar", tags },
    });
