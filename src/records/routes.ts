// HTTP routes of records and drafts. `GET /api/records/{id}` serves the record JSON or, chosen by
// Accept or `?style=`, an export format rendered by the exports module, with Signposting links.
import { Elysia } from "elysia";
import type { Actor } from "../core/actor";
import { actionPayloadBody } from "../core/body";
import type { AddressOf } from "../core/client-address";
import { revisionEtag } from "../core/etag";
import type { ActorContext, RouteContext } from "../core/http";
import { queryParams, singleQueryParams } from "../core/links";
import type { RecordDocument } from "../core/record-document";
import { visitorOf, type Visitor } from "../core/visitor";
import { recordSearchQuery } from "./model";
import type { RecordsService } from "./service";

/** What the record route needs of the exports module (see exports/service.ts). */
export interface RecordFormats {
  /** The export an Accept header (or `?style=`) asks for; null for the record JSON; 406 when nothing offered is acceptable. */
  chooseFormat(accept: string | null, params: Record<string, string>): { contentType: string; render(record: RecordDocument): Promise<string> } | null;
  /** The Signposting `Link` header of a record. */
  signposting(record: RecordDocument): string | Promise<string>;
}

/** Told of each record read through `GET /api/records/{id}`, in any format (statistics decide what counts); awaited, as it may write. */
export type RecordViewHook = (view: { recordId: string; parentId: string; actor: Actor; visitor: Visitor; accept: string | null }) => unknown;

const tags = ["Records"];
const draftTags = ["Drafts"];

/** Sets the ETag from the returned resource's revision. */
const withEtag = <T extends { revision_id: number }>(set: { headers: Record<string, unknown> }, body: T) => {
  set.headers.etag = revisionEtag(body.revision_id);
  return body;
};

/**
 * `GET /api/records/{id}`: this module's Elysia route, and the server's direct route (core/http.ts
 * `direct`) for the same path, so the hottest read skips the framework's per-request work.
 */
export const readRecordRoute =
  (records: RecordsService, formats: RecordFormats, onView: RecordViewHook, addressOf: AddressOf) =>
  async ({ actor, params, request, server, set }: RouteContext<{ id: string }>) => {
    const accept = request.headers.get("accept");
    // Negotiated before the read: an unacceptable Accept is a 406 whether or not the record exists.
    const query = singleQueryParams(request.url);
    const format = formats.chooseFormat(accept, query);
    const record = await records.readRecord(actor, params.id, { includeDeleted: query.include_deleted === "1" || query.include_deleted === "true" });
    const body = format ? await format.render(record) : null;
    // The header and the view are most often answered at once: awaited only when they are not.
    const link = formats.signposting(record);
    const headers = { link: link instanceof Promise ? await link : link, vary: "Accept" };
    const viewed = onView({ recordId: record.id, parentId: record.parent.id, actor, visitor: visitorOf(addressOf(request, server), request), accept });
    if (viewed instanceof Promise) await viewed;
    if (format) return new Response(body, { headers: { ...headers, "content-type": format.contentType } });
    // The record JSON goes through the API's JSON path (vendor types, prettyprint) with its ETag.
    Object.assign(set.headers, headers, { etag: revisionEtag(record.revision_id) });
    return record;
  };

export const recordsRoutes = (http: ActorContext, records: RecordsService, readRecord: ReturnType<typeof readRecordRoute>, addressOf: AddressOf) =>
  new Elysia()
    .use(http)
    .get("/api/records", ({ actor, request }) => records.searchRecords(actor, queryParams(request.url)), {
      query: recordSearchQuery,
      detail: { summary: "Search published records", tags },
    })
    .post(
      "/api/records",
      async ({ actor, body, set }) => {
        set.status = 201;
        return withEtag(set, await records.createDraft(actor, body));
      },
      { detail: { summary: "Create a draft", tags: draftTags } },
    )
    .get("/api/records/:id", readRecord, { detail: { summary: "Read a published record (JSON, or an export format chosen by Accept or ?style=)", tags } })
    .delete(
      "/api/records/:id/delete",
      async ({ actor, params, body, set, request, server }) => {
        await records.deleteRecord(actor, params.id, body, { via: "api", address: addressOf(request, server) });
        set.status = 204;
        return null;
      },
      { detail: { summary: "Delete a published record, leaving a tombstone (administrators)", tags } },
    )
    .post("/api/records/:id/restore", ({ actor, params, request, server }) => records.restoreRecord(actor, params.id, { via: "api", address: addressOf(request, server) }), {
      body: actionPayloadBody,
      detail: { summary: "Restore a deleted record (administrators)", tags },
    })
    .get("/api/records/:id/versions", ({ actor, params, request }) => records.listVersions(actor, params.id, queryParams(request.url)), {
      query: recordSearchQuery,
      detail: { summary: "List a record's versions", tags },
    })
    .post(
      "/api/records/:id/versions",
      async ({ actor, params, set }) => {
        set.status = 201;
        return withEtag(set, await records.newVersion(actor, params.id));
      },
      { body: actionPayloadBody, detail: { summary: "Start a new version", tags: draftTags } },
    )
    .get("/api/records/:id/versions/latest", ({ actor, params }) => records.latestVersion(actor, params.id), { detail: { summary: "Redirect to the latest version", tags } })
    .get("/api/records/:id/draft", async ({ actor, params, set }) => withEtag(set, await records.readDraft(actor, params.id)), {
      detail: { summary: "Read a draft", tags: draftTags },
    })
    .post(
      "/api/records/:id/draft",
      async ({ actor, params, set }) => {
        set.status = 201;
        return withEtag(set, await records.editRecord(actor, params.id));
      },
      { body: actionPayloadBody, detail: { summary: "Edit a published record (creates its draft)", tags: draftTags } },
    )
    .put(
      "/api/records/:id/draft",
      async ({ actor, params, body, request, set }) => withEtag(set, await records.updateDraft(actor, params.id, body, request.headers.get("if-match"))),
      {
        detail: { summary: "Replace a draft", tags: draftTags },
      },
    )
    .delete(
      "/api/records/:id/draft",
      async ({ actor, params, request, set }) => {
        await records.deleteDraft(actor, params.id, request.headers.get("if-match"));
        set.status = 204;
        return null;
      },
      { detail: { summary: "Delete a draft", tags: draftTags } },
    )
    .post(
      "/api/records/:id/draft/actions/publish",
      async ({ actor, params, set }) => {
        set.status = 202;
        return withEtag(set, await records.publish(actor, params.id));
      },
      { body: actionPayloadBody, detail: { summary: "Publish a draft", tags: draftTags } },
    )
    .post(
      "/api/records/:id/draft/pids/doi",
      async ({ actor, params, set }) => {
        set.status = 201;
        return withEtag(set, await records.reserveDoi(actor, params.id));
      },
      { body: actionPayloadBody, detail: { summary: "Reserve a DOI", tags: draftTags } },
    )
    .delete(
      "/api/records/:id/draft/pids/doi",
      async ({ actor, params, set }) => {
        await records.discardDoi(actor, params.id);
        set.status = 204;
        return null;
      },
      { detail: { summary: "Discard a reserved DOI", tags: draftTags } },
    )
    .get("/api/user/records", ({ actor, request }) => records.listUserRecords(actor, queryParams(request.url)), {
      query: recordSearchQuery,
      detail: { summary: "The caller's drafts and records", tags },
    });
