// Users: the list, one account, its actions (the destructive ones confirmed), a token's revocation.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { conflict, notFound } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, seeOther } from "../http";
import type { PageContext } from "../layout";
import { idOf, renderAdmin } from "./frame";
import { text, type AdminKit } from "./kit";
import { AWAITING, awaitingModeration, pendingModerationOf } from "./moderation";
import { MORE_USER_NOTICES, USER_DELETE_FORM_ROUTES, userDeleteRoutes, userMoreOf } from "./user-delete-routes";
import { actionOf, ConfirmUserActionPage, RevokeTokenPage, stateFilters, USER_ACTION_PAGES, UserPage, USERS, UsersPage } from "./users";

export const usersRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { users, userAdmin, tokens, linkedAccounts, quotas } = kit.services;

  async function userPage(ctx: PageContext, actor: Actor, rawId: string, notice?: string) {
    const id = idOf(rawId, "user");
    const user = await userAdmin.readManagedUser(actor, id);
    const [row, linked, tokenRows] = [await users.readAccount(actor, id), await linkedAccounts.listLinkedAccounts(actor, id), await tokens.listTokens(actor, id)];
    const storage = await quotas.readUserUsage(actor, id);
    const moderation = await pendingModerationOf(kit, actor, id);
    const more = await userMoreOf(kit, ctx, actor, id);
    return (
      <UserPage
        ctx={ctx}
        mailOff={kit.mailOff()}
        user={user}
        row={row}
        identities={linked.identities}
        tokens={tokenRows}
        storage={storage}
        moderation={moderation}
        notice={notice}
        more={more}
      />
    );
  }

  /** A user's token for its revoke step: 404 unless it is this user's. */
  async function tokenOf(actor: Actor, userId: number, rawTokenId: string) {
    const tokenId = idOf(rawTokenId, "token");
    const token = (await tokens.listTokens(actor, userId)).find((t) => t.id === tokenId);
    if (!token) throw notFound(`No token with id ${rawTokenId}.`);
    if (token.revokedAt !== null) throw conflict(`Token ${token.id} was revoked already.`);
    return token;
  }

  return (
    new Elysia()
      .use(http)
      // Before `/users/:id/:action`: delete and password-reset are not among its actions.
      .use(userDeleteRoutes(http, kit))
      .get(USERS, async ({ actor, request, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const filters = { q: text(query.q), state: text(query.state), since: text(query.since) };
          const paging = { page: text(query.page) || undefined, size: text(query.size) || undefined };
          const result =
            filters.state === AWAITING
              ? await awaitingModeration(kit, actor, { q: filters.q, ...paging })
              : await userAdmin.searchAllUsers(actor, { q: filters.q, ...stateFilters(filters.state), created_since: filters.since || undefined, ...paging });
          const page = Number(text(query.page) || 1);
          const size = Number(text(query.size) || 10);
          const deleted = text(query.deleted);
          const notice = deleted ? `The account ${deleted} was deleted.` : undefined;
          return <UsersPage ctx={ctx} mailOff={kit.mailOff()} filters={filters} result={result} page={page} size={size} notice={notice} />;
        }),
      )
      .get(`${USERS}/:id`, async ({ actor, request, params, query }) =>
        renderAdmin(deps, actor, request, (ctx) => {
          const done = text(query.done);
          const notice = done === "revoked" ? "The token was revoked." : Object.hasOwn(USER_ACTION_PAGES, done) ? USER_ACTION_PAGES[actionOf(done)].done : MORE_USER_NOTICES[done];
          return userPage(ctx, actor, params.id, notice);
        }),
      )
      .get(`${USERS}/:id/:action`, async ({ actor, request, params }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const action = actionOf(params.action);
          const user = await userAdmin.readManagedUser(actor, idOf(params.id, "user"));
          return <ConfirmUserActionPage ctx={ctx} mailOff={kit.mailOff()} user={user} action={action} />;
        }),
      )
      .post(`${USERS}/:id/:action`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          const action = actionOf(params.action);
          checkCsrf(actor, formOf(body));
          const user = await userAdmin[action](actor, idOf(params.id, "user"), kit.origin(request, server));
          return seeOther(`${USERS}/${user.id}?done=${action}`);
        }),
      )
      .get(`${USERS}/:id/tokens/:tokenId/revoke`, async ({ actor, request, params }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const user = await userAdmin.readManagedUser(actor, idOf(params.id, "user"));
          const token = await tokenOf(actor, Number(user.id), params.tokenId);
          return <RevokeTokenPage ctx={ctx} mailOff={kit.mailOff()} user={user} token={token} />;
        }),
      )
      .post(`${USERS}/:id/tokens/:tokenId/revoke`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          const user = await userAdmin.readManagedUser(actor, idOf(params.id, "user"));
          const token = await tokenOf(actor, Number(user.id), params.tokenId);
          await tokens.revokeToken(actor, token.id);
          await kit.audit(actor, request, server, { action: "token.revoke", targetType: "token", targetId: token.id, details: { user: user.id, name: token.name } });
          return seeOther(`${USERS}/${user.id}?done=revoked`);
        }),
      )
  );
};

export const USERS_FORM_ROUTES = [...USER_DELETE_FORM_ROUTES, `POST ${USERS}/:id/:action`, `POST ${USERS}/:id/tokens/:tokenId/revoke`];
