// Users, continued: the delete step (GET: what happens, the choice; POST: the delete, then the list
// with a notice) and "send a password-reset link"; and the user's page's records, communities and
// sign-ins. Mounted before the users' `/users/:id/:action` routes, which these are not.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { HttpError } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { idOf, queryOf, renderAdmin } from "./frame";
import type { AdminKit } from "./kit";
import { DeleteUserPage, MoreUserActions, USER_LIST_SIZE, UserCommunities, UserRecords, UserSignIns } from "./user-sections";
import { USERS } from "./users";

/** The notices of the actions here, by the `done` they redirect with. */
export const MORE_USER_NOTICES: Record<string, string> = {
  "password-reset": "A password-reset link was sent to the account's e-mail address.",
};

/** The user's page's extra actions and sections (records and drafts, communities, sign-ins), each list capped. */
export async function userMoreOf(kit: AdminKit, ctx: PageContext, actor: Actor, id: number) {
  const { records, members, sessions } = kit.services;
  const owned = await records.listOwnedRecords(actor, id, USER_LIST_SIZE);
  const { communities, total } = await members.listUserCommunities(actor, id, USER_LIST_SIZE);
  const signIns = await sessions.listSignIns(actor, id, USER_LIST_SIZE);
  return {
    actions: <MoreUserActions ctx={ctx} userId={String(id)} />,
    sections: (
      <>
        <UserRecords owned={owned} />
        <UserCommunities communities={communities} total={total} />
        <UserSignIns signIns={signIns} />
      </>
    ),
  };
}

export const userDeleteRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { userAdmin } = kit.services;

  async function deletePage(ctx: PageContext, actor: Actor, rawId: string, error?: string) {
    const preview = await userAdmin.deletePreview(actor, idOf(rawId, "user"));
    return (
      <DeleteUserPage ctx={ctx} mailOff={kit.mailOff()} user={preview.user} records={preview.records} drafts={preview.drafts} soleOwnerOf={preview.soleOwnerOf} error={error} />
    );
  }

  return new Elysia()
    .use(http)
    .get(`${USERS}/:id/delete`, async ({ actor, request, params }) => renderAdmin(deps, actor, request, (ctx) => deletePage(ctx, actor, params.id)))
    .post(`${USERS}/:id/delete`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const form = formOf(body);
        checkCsrf(actor, form);
        try {
          const done = await userAdmin.delete(actor, idOf(params.id, "user"), { records: form.get("records") ?? undefined }, kit.origin(request, server));
          return seeOther(`${USERS}${queryOf({ deleted: done.email })}`);
        } catch (error) {
          // A refusal (no choice, the last administrator, a community's only owner): the step again, saying why.
          if (error instanceof HttpError && error.status === 400) return htmlResponse(await deletePage(ctx, actor, params.id, refusalText(error)), 400);
          throw error;
        }
      }),
    )
    .post(`${USERS}/:id/password-reset`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        const user = await userAdmin.sendPasswordReset(actor, idOf(params.id, "user"), kit.origin(request, server));
        return seeOther(`${USERS}/${user.id}?done=password-reset`);
      }),
    );
};

/** A 400's message, or its field errors' ("Choose what happens…") rather than the generic "A validation error occurred.". */
const refusalText = (error: HttpError) => (error.errors?.length ? error.errors.flatMap((e) => e.messages).join(" ") : error.message);

export const USER_DELETE_FORM_ROUTES = [`POST ${USERS}/:id/delete`, `POST ${USERS}/:id/password-reset`];
