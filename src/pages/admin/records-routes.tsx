// Records and drafts: the search, one record, tombstone and restore (confirmed), a new owner.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { HttpError, validationError } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { searchStateOf } from "../search/state";
import { renderAdmin } from "./frame";
import { text, type AdminKit, type Query } from "./kit";
import { OwnerPage, RecordPage, RecordsPage, RECORDS, RestorePage, summaryOf, TombstonePage, type RecordSummary, type TombstoneForm } from "./records";

type Json = Record<string, any>;

const DONE: Record<string, string> = {
  tombstoned: "The record was tombstoned.",
  restored: "The record was restored.",
  owner: "The record has a new owner.",
};

/** A service's 400 with field errors, which the form shows beside its fields; null for any other error. */
const fieldErrorsOf = (error: unknown) => (error instanceof HttpError && error.status === 400 && error.errors ? error.errors : null);

export const recordsRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { records, users, vocabularies, access } = kit.services;

  /** Owners' e-mails by user id (a page holds a few owners). */
  async function emailsOf(ids: (number | null)[]) {
    const emails = new Map<number, string>();
    for (const id of new Set(ids)) {
      if (id === null || Number.isNaN(id)) continue;
      const user = await users.findUserById(id);
      if (user) emails.set(id, user.email);
    }
    return emails;
  }

  /** A record (deleted ones too) or, with `draft`, a draft, as the screen shows it; the services' 404 otherwise. */
  async function recordOf(actor: Actor, id: string, draft: boolean): Promise<RecordSummary> {
    const json = (draft ? await records.readDraft(actor, id) : await records.readRecord(actor, id, { includeDeleted: true })) as Json;
    const first = summaryOf(json, new Map());
    return summaryOf(json, await emailsOf([first.ownerId]));
  }

  async function reasons(actor: Actor) {
    const found = (await vocabularies.search(actor, "removalreasons", { size: "100" })) as Json;
    return ((found.hits?.hits ?? []) as Json[]).map((h) => ({ id: String(h.id), title: String(h.title?.en ?? h.id) }));
  }

  async function tombstonePage(ctx: PageContext, actor: Actor, id: string, form: TombstoneForm) {
    const record = await recordOf(actor, id, false);
    return <TombstonePage ctx={ctx} mailOff={kit.mailOff()} record={record} reasons={await reasons(actor)} form={form} />;
  }

  /** The user a form names by e-mail or id; a field error when there is none. */
  async function userNamed(actor: Actor, raw: string): Promise<number> {
    const value = raw.trim();
    const user = /^\d{1,15}$/.test(value) ? await users.findUserById(Number(value)) : value ? await users.findUserByEmail(actor, value) : null;
    if (!user)
      throw validationError([
        { field: "owned_by.user", messages: [value ? `No account with the e-mail address or id '${value}'.` : "Give the new owner's e-mail address or user id."] },
      ]);
    return user.id;
  }

  const isDraft = (query: Query) => text(query.draft) === "1";

  return new Elysia()
    .use(http)
    .get(RECORDS, async ({ actor, request, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const state = searchStateOf(request, RECORDS, 20);
        const filters = { q: text(query.q), status: text(query.status) };
        const result = (await records.searchEverything(actor, { ...state.query, size: String(state.size) })) as Json;
        const hits = (result.hits?.hits ?? []) as Json[];
        const emails = await emailsOf(hits.map((h) => summaryOf(h, new Map()).ownerId));
        const rows = hits.map((h) => summaryOf(h, emails));
        return (
          <RecordsPage
            ctx={ctx}
            mailOff={kit.mailOff()}
            state={state}
            filters={filters}
            rows={rows}
            total={Number(result.hits?.total ?? 0)}
            aggregations={result.aggregations ?? {}}
            page={state.page}
            size={state.size}
          />
        );
      }),
    )
    .get(`${RECORDS}/:id`, async ({ actor, request, params, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const record = await recordOf(actor, params.id, isDraft(query));
        return <RecordPage ctx={ctx} mailOff={kit.mailOff()} record={record} notice={DONE[text(query.done)]} />;
      }),
    )
    .get(`${RECORDS}/:id/tombstone`, async ({ actor, request, params }) =>
      renderAdmin(deps, actor, request, (ctx) => tombstonePage(ctx, actor, params.id, { reason: "", note: "" })),
    )
    .post(`${RECORDS}/:id/tombstone`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const form = formOf(body);
        checkCsrf(actor, form);
        const input = { reason: form.get("reason") ?? "", note: form.get("note") ?? "" };
        try {
          await records.deleteRecord(actor, params.id, { removal_reason: { id: input.reason }, note: input.note }, kit.origin(request, server));
        } catch (error) {
          const errors = fieldErrorsOf(error);
          if (errors) return htmlResponse(await tombstonePage(ctx, actor, params.id, { ...input, errors }), 400);
          throw error;
        }
        return seeOther(`${RECORDS}/${params.id}?done=tombstoned`);
      }),
    )
    .get(`${RECORDS}/:id/restore`, async ({ actor, request, params }) =>
      renderAdmin(deps, actor, request, async (ctx) => <RestorePage ctx={ctx} mailOff={kit.mailOff()} record={await recordOf(actor, params.id, false)} />),
    )
    .post(`${RECORDS}/:id/restore`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        await records.restoreRecord(actor, params.id, kit.origin(request, server));
        return seeOther(`${RECORDS}/${params.id}?done=restored`);
      }),
    )
    .get(`${RECORDS}/:id/owner`, async ({ actor, request, params, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const record = await recordOf(actor, params.id, isDraft(query));
        return <OwnerPage ctx={ctx} mailOff={kit.mailOff()} record={record} owner="" />;
      }),
    )
    .post(`${RECORDS}/:id/owner`, async ({ actor, request, params, query, body, server }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const form = formOf(body);
        checkCsrf(actor, form);
        const record = await recordOf(actor, params.id, isDraft(query));
        const owner = form.get("owner") ?? "";
        try {
          const userId = await userNamed(actor, owner);
          // The sharing service's ownership transfer (`PUT /api/records/{id}/access` with `owned_by`).
          await access.updateSettings(actor, params.id, { owned_by: { user: String(userId) } }, kit.origin(request, server));
        } catch (error) {
          const errors = fieldErrorsOf(error);
          if (errors) return htmlResponse(<OwnerPage ctx={ctx} mailOff={kit.mailOff()} record={record} owner={owner} errors={errors} />, 400);
          throw error;
        }
        return seeOther(`${RECORDS}/${params.id}?done=owner${isDraft(query) ? "&draft=1" : ""}`);
      }),
    );
};

export const RECORDS_FORM_ROUTES = [`POST ${RECORDS}/:id/tombstone`, `POST ${RECORDS}/:id/restore`, `POST ${RECORDS}/:id/owner`];
