// Vocabularies: the list, one vocabulary's entries, add/edit/retire (retire confirmed) where the
// type's rule allows, and the imports (an upload streamed to the data directory, or ROR's newest
// release), each queued as a job. Every change is audited by the service it goes through
// (vocabulary.create/update/retire/restore/import, via web with the client's address).
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { badRequest } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import type { EditRule } from "../../vocabularies/model";
import { checkCsrf, formOf, seeOther } from "../http";
import { renderAdmin, requireAdminPage } from "./frame";
import { text, type AdminKit } from "./kit";
import { ConfirmRetirePage, EntryFormPage, IMPORTS, VOCABULARIES, VocabulariesPage, VocabularyPage } from "./vocabularies";

type Entry = Record<string, any>;

const NOTICES: Record<string, string> = {
  added: "The entry was added.",
  updated: "The entry was saved.",
  retired: "The entry was retired: new deposits no longer find it.",
  restored: "The entry is offered again.",
  queued: "The import was queued: refresh the page to follow its progress.",
};

/** A text field ("" when missing). */
const field = (form: URLSearchParams, name: string) => (form.get(name) ?? "").trim();

/** The entry a form makes: labels only, or the whole entry, keeping what the form does not show (other languages, tags, props). */
export function entryFromForm(type: string, rule: EditRule, form: URLSearchParams, stored: Entry | null): Entry {
  const withEn = (map: unknown, value: string) => {
    const rest = { ...((map as Record<string, string>) ?? {}) };
    delete rest.en;
    return value ? { ...rest, en: value } : rest;
  };
  const base: Entry = stored ? { ...stored } : { id: field(form, "id") };
  if (rule.fields === "title") return { ...base, title: withEn(stored?.title, field(form, "title")) };
  if (type === "subjects") return { ...base, scheme: field(form, "scheme"), subject: field(form, "subject") };
  const description = withEn(stored?.description, field(form, "description"));
  const props = { ...((stored?.props as Record<string, string>) ?? {}) };
  if (field(form, "url")) props.url = field(form, "url");
  else delete props.url;
  return { ...base, title: withEn(stored?.title, field(form, "title")), ...(Object.keys(description).length ? { description } : { description: undefined }), props };
}

export const vocabulariesRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { vocabularies, vocabularyImports } = kit.services;

  const entryOf = async (actor: Actor, type: string, query: Record<string, unknown>) => (await vocabularies.read(actor, type, text(query.id))) as Entry;

  return (
    new Elysia()
      .use(http)
      .get(VOCABULARIES, async ({ actor, request, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => (
          <VocabulariesPage
            ctx={ctx}
            mailOff={kit.mailOff()}
            types={await vocabularies.listTypes(actor)}
            imports={await vocabularyImports.listImports(actor)}
            notice={NOTICES[text(query.done)]}
          />
        )),
      )
      .post(`${IMPORTS}/release`, async ({ actor, request, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          const form = formOf(body);
          checkCsrf(actor, form);
          await vocabularyImports.queueRelease(actor, field(form, "type"), kit.origin(request, server));
          return seeOther(`${VOCABULARIES}?done=queued`);
        }),
      )
      // The dump is the request's body (the screen's script sends the file as it is); its name and
      // type are in the query, the CSRF token in a header. Answers JSON for that script.
      .post(`${IMPORTS}/upload`, async ({ actor, request, query, body, server, set }) => {
        requireAdminPage(actor);
        checkCsrf(actor, new URLSearchParams({ csrf: request.headers.get("x-csrf-token") ?? "" }));
        if (!(body instanceof ReadableStream)) throw badRequest("Send the dump as the request body (application/octet-stream).");
        const type = text(query.type);
        const job = await vocabularyImports.queueUpload(actor, type, text(query.name), body as ReadableStream<Uint8Array>, kit.origin(request, server));
        set.status = 201;
        return { job: job.id, location: `${VOCABULARIES}?done=queued` };
      })
      .get(`${VOCABULARIES}/:type`, async ({ actor, request, params, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const q = text(query.q);
          const page = text(query.page) || "1";
          const result = (await vocabularies.search(actor, params.type, { q, page, size: "25" })) as { hits: { hits: Entry[]; total: number } };
          const rule = (await vocabularies.listTypes(actor)).find((t) => t.type === params.type)?.rule ?? null;
          const retired = rule?.retire ? (await vocabularies.listRetired(actor, params.type, { size: "100" })).entries : null;
          const view = { type: params.type, rule, q, page: Number(page), size: 25, hits: result.hits.hits, total: result.hits.total, retired };
          return <VocabularyPage ctx={ctx} mailOff={kit.mailOff()} view={view} notice={NOTICES[text(query.done)]} />;
        }),
      )
      .get(`${VOCABULARIES}/:type/new`, async ({ actor, request, params }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const { type, rule } = await vocabularies.editableType(actor, params.type);
          if (!rule.add) throw badRequest(`Entries are not added to ${type} by hand.`);
          return <EntryFormPage ctx={ctx} mailOff={kit.mailOff()} type={type} rule={rule} entry={null} />;
        }),
      )
      .post(`${VOCABULARIES}/:type/new`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          const form = formOf(body);
          checkCsrf(actor, form);
          const { type, rule } = await vocabularies.editableType(actor, params.type);
          await vocabularies.addEntry(actor, type, entryFromForm(type, rule, form, null), kit.origin(request, server));
          return seeOther(`${VOCABULARIES}/${type}?done=added`);
        }),
      )
      .get(`${VOCABULARIES}/:type/edit`, async ({ actor, request, params, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const { type, rule } = await vocabularies.editableType(actor, params.type);
          return <EntryFormPage ctx={ctx} mailOff={kit.mailOff()} type={type} rule={rule} entry={await entryOf(actor, type, query)} />;
        }),
      )
      .post(`${VOCABULARIES}/:type/edit`, async ({ actor, request, params, query, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          const form = formOf(body);
          checkCsrf(actor, form);
          const { type, rule } = await vocabularies.editableType(actor, params.type);
          const stored = await entryOf(actor, type, query);
          await vocabularies.editEntry(actor, type, stored.id, entryFromForm(type, rule, form, stored), form.get("revision"), kit.origin(request, server));
          return seeOther(`${VOCABULARIES}/${type}?done=updated`);
        }),
      )
      .get(`${VOCABULARIES}/:type/retire`, async ({ actor, request, params, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const { type } = await vocabularies.editableType(actor, params.type);
          return <ConfirmRetirePage ctx={ctx} mailOff={kit.mailOff()} type={type} entry={await entryOf(actor, type, query)} />;
        }),
      )
      .post(`${VOCABULARIES}/:type/:change`, async ({ actor, request, params, query, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          if (params.change !== "retire" && params.change !== "restore") throw badRequest(`No action '${params.change}'.`);
          const { type } = await vocabularies.editableType(actor, params.type);
          const id = text(query.id);
          await vocabularies.setRetired(actor, type, id, params.change === "retire", kit.origin(request, server));
          return seeOther(`${VOCABULARIES}/${type}?done=${params.change === "retire" ? "retired" : "restored"}`);
        }),
      )
  );
};

export const VOCABULARIES_FORM_ROUTES = [`POST ${IMPORTS}/release`, `POST ${VOCABULARIES}/:type/new`, `POST ${VOCABULARIES}/:type/edit`, `POST ${VOCABULARIES}/:type/:change`];
/** The upload's body is the dump, streamed (httpHooks' streamedBodyRoutes). */
export const VOCABULARIES_UPLOAD_ROUTES = [`POST ${IMPORTS}/upload`];
