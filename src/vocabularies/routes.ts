// HTTP routes of vocabularies: /api/vocabularies/{type} for every type, and the directories'
// own paths (/api/funders, /api/names, /api/affiliations, /api/subjects, /api/awards).
import { Elysia, t } from "elysia";
import type { ActorContext } from "../core/http";
import { revisionEtag } from "../core/etag";
import { SPECIFIC_TYPES, vocabularySearchQuery } from "./model";
import type { VocabulariesService } from "./service";

/** A JSON object; its fields are checked per type by the service. */
const anyObject = t.Object({}, { additionalProperties: true });

/** The five routes of one vocabulary, under `base` with the type from `typeOf(params)`. */
function vocabularyRoutes(http: ActorContext, vocabularies: VocabulariesService, base: string, typeOf: (params: Record<string, string>) => string) {
  const tags = ["Vocabularies"];
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
      ({ actor, params, body, set }) => {
        set.status = 201;
        return vocabularies.create(actor, typeOf(params), body);
      },
      { body: anyObject, detail: { summary: "Create a vocabulary entry (administrators)", tags } },
    )
    .put(`${base}/:id`, ({ actor, params, body, request }) => vocabularies.update(actor, typeOf(params), params.id, body, request.headers.get("if-match")), {
      body: anyObject,
      detail: { summary: "Replace a vocabulary entry (administrators)", tags },
    })
    .delete(
      `${base}/:id`,
      async ({ actor, params, set, request }) => {
        await vocabularies.remove(actor, typeOf(params), params.id, request.headers.get("if-match"));
        set.status = 204;
        return null;
      },
      { detail: { summary: "Delete a vocabulary entry (administrators)", tags } },
    );
}

export const vocabulariesRoutes = (http: ActorContext, vocabularies: VocabulariesService) => {
  let app = new Elysia().use(vocabularyRoutes(http, vocabularies, "/api/vocabularies/:type", (p) => p.type!));
  for (const type of SPECIFIC_TYPES) app = app.use(vocabularyRoutes(http, vocabularies, `/api/${type}`, () => type));
  return app;
};
