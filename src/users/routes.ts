// HTTP routes of the users directory.
import { Elysia } from "elysia";
import { avatarResponse } from "../core/avatar";
import type { AddressOf } from "../core/client-address";
import type { ActorContext } from "../core/http";
import type { UserAdminService } from "./admin";
import { allUsersQuery, userSearchQuery } from "./model";
import type { UsersService } from "./service";

const tags = ["Users"];

export const usersRoutes = (http: ActorContext, users: UsersService, admin: UserAdminService, addressOf: AddressOf) =>
  new Elysia({ prefix: "/api/users" })
    .use(http)
    .get("/all", ({ actor, query }) => admin.searchAllUsers(actor, query), {
      query: allUsersQuery,
      detail: { summary: "Every account, with is_active, is_blocked and is_verified filters (administrators)", tags },
    })
    .post("/:id/block", ({ actor, params, request, server }) => admin.block(actor, params.id, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Block a user: no sign-in, sessions ended, tokens refused, open requests cancelled (administrators)", tags },
    })
    .post("/:id/restore", ({ actor, params, request, server }) => admin.restore(actor, params.id, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Undo a block or a deactivation (administrators)", tags },
    })
    .post("/:id/approve", ({ actor, params, request, server }) => admin.approve(actor, params.id, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Mark a user verified (administrators)", tags },
    })
    .post("/:id/activate", ({ actor, params, request, server }) => admin.activate(actor, params.id, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Activate a deactivated user (administrators)", tags },
    })
    .post("/:id/deactivate", ({ actor, params, request, server }) => admin.deactivate(actor, params.id, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Deactivate a user: no sign-in, sessions ended (administrators)", tags },
    })
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
