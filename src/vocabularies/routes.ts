// HTTP routes of vocabularies: /api/vocabularies/{type} for every type, and the directories'
// own paths (/api/funders, /api/names, /api/affiliations, /api/subjects, /api/awards). Retire and
// restore are Cairn's (InvenioRDM has no REST way): POST {entry}/retire and {entry}/restore.
import { Elysia, t } from "elysia";
import type { AddressOf, PeerInfo } from "../core/client-address";
import type { ActorContext } from "../core/http";
import { revisionEtag } from "../core/etag";
import { SPECIFIC_TYPES, vocabularySearchQuery } from "./model";
import type { VocabularyImports } from "./imports";
import type { VocabulariesService } from "./service";

/** A JSON object; its fields are checked per type by the service. */
const anyObject = t.Object({}, { additionalProperties: true });

/** The seven routes of one vocabulary, under `base` with the type from `typeOf(params)`. */
function vocabularyRoutes(http: ActorContext, vocabularies: VocabulariesService, base: string, typeOf: (params: Record<string, string>) => string, addressOf: AddressOf) {
  const tags = ["Vocabularies"];
  const api = (request: Request, server: PeerInfo | null) => ({ via: "api" as const, address: addressOf(request, server) });
  return new Elysia()
    .use(http)
    .get(base, ({ actor, params, query }) => vocabularies.search(actor, typeOf(params), query), { query: vocabularySearchQuery, detail: { summary: "Search a vocabulary", tags } })
    .get(
      `${base}/:id`,
      async ({ actor, params, set }) => {
        const entry = await vocabularies.read(actor, typeOf(params), params.id);
        set.headers.etag = revisionEtag(entry.revision_id);
        return entry;
      },
      { detail: { summary: "Read a vocabulary entry", tags } },
    )
    .post(
      base,
      ({ actor, params, body, set, request, server }) => {
        set.status = 201;
        return vocabularies.create(actor, typeOf(params), body, api(request, server));
      },
      { body: anyObject, detail: { summary: "Create a vocabulary entry (administrators)", tags } },
    )
    .put(
      `${base}/:id`,
      ({ actor, params, body, request, server }) => vocabularies.update(actor, typeOf(params), params.id, body, request.headers.get("if-match"), api(request, server)),
      {
        body: anyObject,
        detail: { summary: "Replace a vocabulary entry (administrators)", tags },
      },
    )
    .delete(
      `${base}/:id`,
      async ({ actor, params, set, request, server }) => {
        await vocabularies.remove(actor, typeOf(params), params.id, request.headers.get("if-match"), api(request, server));
        set.status = 204;
        return null;
      },
      { detail: { summary: "Delete a vocabulary entry (administrators)", tags } },
    )
    .post(`${base}/:id/retire`, ({ actor, params, request, server }) => vocabularies.setRetired(actor, typeOf(params), params.id, true, api(request, server)), {
      detail: { summary: "Retire an entry: new deposits no longer find it, records naming it still resolve (administrators; licenses, subjects)", tags },
    })
    .post(`${base}/:id/restore`, ({ actor, params, request, server }) => vocabularies.setRetired(actor, typeOf(params), params.id, false, api(request, server)), {
      detail: { summary: "Offer a retired entry again (administrators)", tags },
    });
}

/** The upload's body is the dump, streamed to the data directory (httpHooks' streamedBodyRoutes). */
export const VOCABULARY_IMPORT_ROUTES = ["POST /api/vocabularies/:type/imports"];

/** An import job as these routes answer it: follow it on the Vocabularies or Jobs screen, or `cairn jobs`. */
const queuedImport = (job: { id: number; status: string; payload: unknown }) => ({
  id: job.id,
  status: job.status,
  ...(job.payload as { type: string; source: string; name: string }),
});

/**
 * The Vocabularies screen's imports (Cairn's; InvenioRDM imports with its CLI only), administrators
 * only: a dump sent as the request's body (`?name=` gives its file name, whose extensions choose its
 * reader), or ROR's newest release downloaded by the job. 202 with the queued job.
 */
function importRoutes(http: ActorContext, imports: VocabularyImports, addressOf: AddressOf) {
  const tags = ["Vocabularies"];
  const api = (request: Request, server: PeerInfo | null) => ({ via: "api" as const, address: addressOf(request, server) });
  return new Elysia()
    .use(http)
    .post(
      "/api/vocabularies/:type/imports",
      async ({ actor, params, query, body, request, server, set }) => {
        const name = typeof query.name === "string" ? query.name : "";
        const dump = body instanceof ReadableStream ? (body as ReadableStream<Uint8Array>) : null;
        const job = await imports.queueUpload(actor, params.type, name, dump, api(request, server));
        set.status = 202;
        return queuedImport(job);
      },
      { detail: { summary: "Import an uploaded dump into a vocabulary as a job (administrators; ?name= the file's name)", tags } },
    )
    .post(
      "/api/vocabularies/:type/imports/release",
      async ({ actor, params, request, server, set }) => {
        const job = await imports.queueRelease(actor, params.type, api(request, server));
        set.status = 202;
        return queuedImport(job);
      },
      { detail: { summary: "Download and import ROR's newest release as a job (administrators; affiliations, funders)", tags } },
    );
}

export const vocabulariesRoutes = (http: ActorContext, vocabularies: VocabulariesService, imports: VocabularyImports, addressOf: AddressOf) => {
  let app = new Elysia().use(importRoutes(http, imports, addressOf)).use(vocabularyRoutes(http, vocabularies, "/api/vocabularies/:type", (p) => p.type!, addressOf));
  for (const type of SPECIFIC_TYPES) app = app.use(vocabularyRoutes(http, vocabularies, `/api/${type}`, () => type, addressOf));
  return app;
};
