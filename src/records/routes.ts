// HTTP routes of records and drafts.
import { Elysia } from "elysia";
import { revisionEtag } from "../core/etag";
import type { ActorContext } from "../core/http";
import { queryParams } from "../core/links";
import { recordSearchQuery } from "./model";
import type { RecordsService } from "./service";

const tags = ["Records"];
const draftTags = ["Drafts"];

/** Sets the ETag from the returned resource's revision. */
const withEtag = <T extends { revision_id: number }>(set: { headers: Record<string, unknown> }, body: T) => {
  set.headers.etag = revisionEtag(body.revision_id);
  return body;
};

export const recordsRoutes = (http: ActorContext, records: RecordsService) =>
  new Elysia()
    .use(http)
    .get("/api/records", ({ actor, request }) => records.searchRecords(actor, queryParams(request.url)), { query: recordSearchQuery, detail: { summary: "Search published records", tags } })
    .post("/api/records", ({ actor, body, set }) => {
      set.status = 201;
      return withEtag(set, records.createDraft(actor, body));
    }, { detail: { summary: "Create a draft", tags: draftTags } })
    // GET /api/records/:id (the record JSON, or an export format by Accept) is in exports/routes.ts.
    .get("/api/records/:id/versions", ({ actor, params, request }) => records.listVersions(actor, params.id, queryParams(request.url)), { query: recordSearchQuery, detail: { summary: "List a record's versions", tags } })
    .post("/api/records/:id/versions", ({ actor, params, set }) => {
      set.status = 201;
      return withEtag(set, records.newVersion(actor, params.id));
    }, { detail: { summary: "Start a new version", tags: draftTags } })
    .get("/api/records/:id/versions/latest", ({ actor, params }) => records.latestVersion(actor, params.id), { detail: { summary: "Redirect to the latest version", tags } })
    .get("/api/records/:id/draft", ({ actor, params, set }) => withEtag(set, records.readDraft(actor, params.id)), { detail: { summary: "Read a draft", tags: draftTags } })
    .post("/api/records/:id/draft", ({ actor, params, set }) => {
      set.status = 201;
      return withEtag(set, records.editRecord(actor, params.id));
    }, { detail: { summary: "Edit a published record (creates its draft)", tags: draftTags } })
    .put("/api/records/:id/draft", ({ actor, params, body, request, set }) => withEtag(set, records.updateDraft(actor, params.id, body, request.headers.get("if-match"))), {
      detail: { summary: "Replace a draft", tags: draftTags },
    })
    .delete("/api/records/:id/draft", ({ actor, params, request, set }) => {
      records.deleteDraft(actor, params.id, request.headers.get("if-match"));
      set.status = 204;
      return null;
    }, { detail: { summary: "Delete a draft", tags: draftTags } })
    .post("/api/records/:id/draft/actions/publish", ({ actor, params, set }) => {
      set.status = 202;
      return withEtag(set, records.publish(actor, params.id));
    }, { detail: { summary: "Publish a draft", tags: draftTags } })
    .post("/api/records/:id/draft/pids/doi", ({ actor, params, set }) => {
      set.status = 201;
      return withEtag(set, records.reserveDoi(actor, params.id));
    }, { detail: { summary: "Reserve a DOI", tags: draftTags } })
    .delete("/api/records/:id/draft/pids/doi", ({ actor, params, set }) => {
      records.discardDoi(actor, params.id);
      set.status = 204;
      return null;
    }, { detail: { summary: "Discard a reserved DOI", tags: draftTags } })
    .get("/api/user/records", ({ actor, request }) => records.listUserRecords(actor, queryParams(request.url)), { query: recordSearchQuery, detail: { summary: "The caller's drafts and records", tags } });
