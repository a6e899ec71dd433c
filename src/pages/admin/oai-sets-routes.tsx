// OAI-PMH sets: the search, a new set, a set's form, delete (confirmed); a refused form (400) comes
// back with the service's messages beside its fields.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { HttpError } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import { renderAdmin } from "./frame";
import { text, type AdminKit } from "./kit";
import { DeleteSetPage, EMPTY_SET, OAI_SETS, OaiSetsPage, SetFormPage, type OaiSet, type SetValues } from "./oai-sets";

const DONE: Record<string, string> = { created: "The set was created.", saved: "The set was saved.", deleted: "The set was deleted." };

const valuesOf = (form: URLSearchParams): SetValues => ({
  name: form.get("name") ?? "",
  spec: form.get("spec") ?? "",
  search_pattern: form.get("search_pattern") ?? "",
  description: form.get("description") ?? "",
});

const valuesOfSet = (set: OaiSet): SetValues => ({ name: set.name, spec: set.spec, search_pattern: set.search_pattern, description: set.description ?? "" });

/** A service's 400 with field errors (the form shows them); null for any other error. */
const fieldErrorsOf = (error: unknown) => (error instanceof HttpError && error.status === 400 && error.errors ? error.errors : null);

export const oaiSetsRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { oai } = kit.services;
  const readSet = async (actor: Actor, id: string) => (await oai.readSet(actor, id)) as OaiSet;

  return new Elysia()
    .use(http)
    .get(OAI_SETS, async ({ actor, request, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const q = text(query.q);
        const size = text(query.size) || "20";
        const result = await oai.listSets(actor, { q, page: text(query.page) || undefined, size });
        return (
          <OaiSetsPage
            ctx={ctx}
            mailOff={kit.mailOff()}
            q={q}
            sets={result.hits.hits as OaiSet[]}
            total={result.hits.total}
            page={Number(text(query.page) || 1)}
            size={Number(size)}
            notice={DONE[text(query.done)]}
          />
        );
      }),
    )
    .get(`${OAI_SETS}/new`, async ({ actor, request }) =>
      renderAdmin(deps, actor, request, (ctx) => <SetFormPage ctx={ctx} mailOff={kit.mailOff()} set={null} values={EMPTY_SET} />),
    )
    .post(`${OAI_SETS}/new`, async ({ actor, request, body, server }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const form = formOf(body);
        checkCsrf(actor, form);
        const values = valuesOf(form);
        let created: OaiSet;
        try {
          created = (await oai.createSet(actor, values, kit.origin(request, server))) as OaiSet;
        } catch (error) {
          const errors = fieldErrorsOf(error);
          if (errors) return htmlResponse(<SetFormPage ctx={ctx} mailOff={kit.mailOff()} set={null} values={values} errors={errors} />, 400);
          throw error;
        }
        return seeOther(`${OAI_SETS}/${created.id}?done=created`);
      }),
    )
    .get(`${OAI_SETS}/:id`, async ({ actor, request, params, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const set = await readSet(actor, params.id);
        return <SetFormPage ctx={ctx} mailOff={kit.mailOff()} set={set} values={valuesOfSet(set)} notice={DONE[text(query.done)]} />;
      }),
    )
    .post(`${OAI_SETS}/:id`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const form = formOf(body);
        checkCsrf(actor, form);
        const set = await readSet(actor, params.id);
        // The spec is not part of the form: it cannot change.
        const values = { ...valuesOf(form), spec: set.spec };
        try {
          await oai.updateSet(actor, params.id, values, kit.origin(request, server));
        } catch (error) {
          const errors = fieldErrorsOf(error);
          if (errors) return htmlResponse(<SetFormPage ctx={ctx} mailOff={kit.mailOff()} set={set} values={values} errors={errors} />, 400);
          throw error;
        }
        return seeOther(`${OAI_SETS}/${set.id}?done=saved`);
      }),
    )
    .get(`${OAI_SETS}/:id/delete`, async ({ actor, request, params }) =>
      renderAdmin(deps, actor, request, async (ctx) => <DeleteSetPage ctx={ctx} mailOff={kit.mailOff()} set={await readSet(actor, params.id)} />),
    )
    .post(`${OAI_SETS}/:id/delete`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        const set = await readSet(actor, params.id);
        await oai.deleteSet(actor, String(set.id), kit.origin(request, server));
        return seeOther(`${OAI_SETS}?done=deleted`);
      }),
    );
};

export const OAI_SETS_FORM_ROUTES = [`POST ${OAI_SETS}/new`, `POST ${OAI_SETS}/:id`, `POST ${OAI_SETS}/:id/delete`];
