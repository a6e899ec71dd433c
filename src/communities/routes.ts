// HTTP routes of communities, their logo, featured periods and records; `/api/user/communities`.
// (Members, invitations and requests of a community are mounted by their own modules.)
import { Elysia } from "elysia";
import type { AddressOf } from "../core/client-address";
import { badRequest, unsupportedMediaType } from "../core/errors";
import type { ActorContext } from "../core/http";
import { queryParams } from "../core/links";
import type { ByteSource } from "../storage/file-store";
import type { CommunityBody } from "./model";
import type { CommunitiesService } from "./service";

const tags = ["Communities"];

/** The routes whose request body is raw bytes, left unread by the JSON body parser (httpHooks' streamedBodyRoutes). */
export const COMMUNITY_CONTENT_ROUTES = ["PUT /api/communities/:id/logo"];

/** A logo body: the stream the parser left unread; anything parsed (JSON) is the wrong type. */
function byteBody(body: unknown, request: Request): ByteSource {
  if (body instanceof ReadableStream) return body as ReadableStream<Uint8Array>;
  if (body === undefined && request.body === null) return new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  throw unsupportedMediaType("application/octet-stream");
}

/** A Content-Length header as a byte count: absent is null, anything else but digits a 400. */
function contentLength(request: Request): number | null {
  const value = request.headers.get("content-length");
  if (value === null) return null;
  if (!/^\d+$/.test(value.trim())) throw badRequest("Content-Length must be a whole number of bytes.");
  return Number(value.trim());
}

/** The 204 of a deletion, answered once `done` (the operation) has finished. */
const noContent = async (set: { status?: number | string }, done: Promise<unknown>) => {
  await done;
  set.status = 204;
  return null;
};

export const communitiesRoutes = (http: ActorContext, communities: CommunitiesService, addressOf: AddressOf) =>
  new Elysia()
    .use(http)
    .get("/api/communities", async ({ actor, request }) => await communities.searchCommunities(actor, queryParams(request.url)), {
      detail: { summary: "Search communities (restricted ones only for their members)", tags },
    })
    .post(
      "/api/communities",
      async ({ actor, body, set }) => {
        set.status = 201;
        return await communities.createCommunity(actor, body as CommunityBody);
      },
      { detail: { summary: "Create a community; the caller becomes its owner", tags } },
    )
    // A static segment: routed before /api/communities/:id, so `featured` is never taken for a slug.
    .get("/api/communities/featured", async ({ actor, request }) => await communities.searchFeatured(actor, queryParams(request.url)), {
      detail: { summary: "Featured communities, latest featured period first", tags },
    })
    .get("/api/communities/:id", async ({ actor, params }) => await communities.readCommunity(actor, params.id), { detail: { summary: "Read a community by id or slug", tags } })
    .put(
      "/api/communities/:id",
      async ({ actor, params, body, request }) => await communities.updateCommunity(actor, params.id, body as CommunityBody, request.headers.get("if-match")),
      {
        detail: { summary: "Update a community (owners)", tags },
      },
    )
    .delete(
      "/api/communities/:id",
      ({ actor, params, request, server, set }) =>
        noContent(set, communities.deleteCommunity(actor, params.id, request.headers.get("if-match"), { via: "api", address: addressOf(request, server) })),
      {
        detail: { summary: "Delete a community (owners); its records stay", tags },
      },
    )
    .post(
      "/api/communities/:id/rename",
      async ({ actor, params, body, request }) => await communities.renameCommunity(actor, params.id, body as CommunityBody, request.headers.get("if-match")),
      {
        detail: { summary: "Change a community's slug (owners)", tags },
      },
    )
    .get("/api/communities/:id/logo", async ({ actor, params, request }) => await communities.readLogo(actor, params.id, request.headers.get("if-none-match")), {
      detail: { summary: "A community's logo (its bytes, with the image type)", tags },
    })
    .put("/api/communities/:id/logo", async ({ actor, params, body, request }) => await communities.updateLogo(actor, params.id, byteBody(body, request), contentLength(request)), {
      detail: { summary: "Upload a logo: raw PNG, JPEG, GIF, WebP or SVG bytes as application/octet-stream (owners)", tags },
    })
    .delete("/api/communities/:id/logo", ({ actor, params, set }) => noContent(set, communities.deleteLogo(actor, params.id)), {
      detail: { summary: "Remove a community's logo (owners)", tags },
    })
    .get("/api/communities/:id/records", async ({ actor, params, request }) => await communities.searchRecords(actor, params.id, queryParams(request.url)), {
      detail: { summary: "Records of a community", tags },
    })
    .get("/api/communities/:id/featured", async ({ actor, params }) => await communities.listFeatured(actor, params.id), {
      detail: { summary: "A community's featured periods (administrators)", tags },
    })
    .post(
      "/api/communities/:id/featured",
      async ({ actor, params, body, set, request, server }) => {
        set.status = 201;
        return await communities.createFeatured(actor, params.id, body, { via: "api", address: addressOf(request, server) });
      },
      { detail: { summary: "Feature a public community from start_date, until end_date if given (administrators)", tags } },
    )
    .put(
      "/api/communities/:id/featured/:featuredId",
      async ({ actor, params, body, request, server }) =>
        await communities.updateFeatured(actor, params.id, params.featuredId, body, { via: "api", address: addressOf(request, server) }),
      {
        detail: { summary: "Change a featured period's start and end (administrators)", tags },
      },
    )
    .delete(
      "/api/communities/:id/featured/:featuredId",
      ({ actor, params, set, request, server }) =>
        noContent(set, communities.deleteFeatured(actor, params.id, params.featuredId, { via: "api", address: addressOf(request, server) })),
      {
        detail: { summary: "Remove a featured period (administrators)", tags },
      },
    )
    .get("/api/user/communities", async ({ actor, request }) => await communities.searchUserCommunities(actor, queryParams(request.url)), {
      detail: { summary: "The caller's communities (any role, directly or through a group)", tags },
    });
