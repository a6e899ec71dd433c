// The administration's routes: each screen's pages and forms, for administrators only (everyone
// else gets the 404 page), each form a POST with the session's CSRF token, each action recorded
// in the audit log. The screens themselves are in ADMIN_SCREENS (frame.tsx).
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { createAddressResolver } from "../../core/client-address";
import { conflict, HttpError, notFound } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import type { OutboxMessage } from "../../mail/service";
import type { PagesDeps } from "../context";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { AuditPage, AUDIT } from "./audit";
import { BACKUPS, BackupsPage } from "./backups";
import { ADMIN, idOf, renderAdmin } from "./frame";
import { HealthPage, HEALTH } from "./health";
import { CancelJobPage, JOBS, JobsPage } from "./jobs";
import { MAIL, MessagePage, OutboxPage, ResendPage } from "./mail";
import { actionOf, ConfirmUserActionPage, RevokeTokenPage, stateFilters, USER_ACTION_PAGES, UserPage, USERS, UsersPage } from "./users";

/** A query parameter as one string ("" when missing or repeated). */
const text = (value: unknown) => (typeof value === "string" ? value : "");

/** What a resend or a test mail came to, once its delivery run is over. */
function deliveryNotice(message: OutboxMessage, what: string): string {
  if (message.status === "sent") return `${what}: the SMTP server accepted it.`;
  if (message.status === "failed") return `${what}, but the SMTP server refused it: its answer is below.`;
  return `${what}: it waits in the outbox until MAIL_SERVER is set.`;
}

export const adminPages = (http: ActorContext, deps: PagesDeps) => {
  const { health, mail, jobs, audit, users, userAdmin, tokens, linkedAccounts, backup } = deps.services;
  const config = deps.services.deps.config;
  const mailOff = () => !config.MAIL_SERVER;
  const addressOf = createAddressResolver(config.APP_TRUSTED_PROXIES);
  type Query = Record<string, unknown>;

  const healthPage = async (ctx: PageContext, actor: Actor) => <HealthPage ctx={ctx} health={await health.readHealth(actor)} mailOff={mailOff()} />;

  async function outboxPage(ctx: PageContext, actor: Actor, query: Query, form: { to?: string; errors?: HttpError["errors"] } = {}) {
    const filters = { status: text(query.status), q: text(query.q) };
    const result = await mail.searchOutbox(actor, { ...filters, page: query.page, size: query.size });
    const own = actor.kind === "user" ? ((await users.findUserById(actor.userId))?.email ?? "") : "";
    return <OutboxPage ctx={ctx} mailOff={mailOff()} filters={filters} result={result} testTo={form.to ?? own} errors={form.errors} />;
  }

  async function jobsPage(ctx: PageContext, actor: Actor, query: Query) {
    const status = text(query.status);
    const notices: Record<string, string> = { retried: "The job was queued again.", cancelled: "The job was cancelled." };
    const [result, kinds] = [await jobs.searchJobs(actor, { status, page: query.page, size: query.size }), await jobs.listKinds(actor)];
    return <JobsPage ctx={ctx} mailOff={mailOff()} status={status} result={result} kinds={kinds} notice={notices[text(query.done)]} />;
  }

  async function userPage(ctx: PageContext, actor: Actor, rawId: string, notice?: string) {
    const id = idOf(rawId, "user");
    const user = await userAdmin.readManagedUser(actor, id);
    const [row, linked, tokenRows] = [await users.readAccount(actor, id), await linkedAccounts.listLinkedAccounts(actor, id), await tokens.listTokens(actor, id)];
    return <UserPage ctx={ctx} mailOff={mailOff()} user={user} row={row} identities={linked.identities} tokens={tokenRows} notice={notice} />;
  }

  /** A user's token for its revoke step: 404 unless it is this user's. */
  async function tokenOf(actor: Actor, userId: number, rawTokenId: string) {
    const tokenId = idOf(rawTokenId, "token");
    const token = (await tokens.listTokens(actor, userId)).find((t) => t.id === tokenId);
    if (!token) throw notFound(`No token with id ${rawTokenId}.`);
    return token;
  }

  return (
    new Elysia()
      .use(http)
      .get(ADMIN, async ({ actor, request }) => renderAdmin(deps, actor, request, (ctx) => healthPage(ctx, actor)))
      .get(HEALTH, async ({ actor, request }) => renderAdmin(deps, actor, request, (ctx) => healthPage(ctx, actor)))
      // Mail: the outbox, one message, resend (confirmed), a test mail.
      .get(MAIL, async ({ actor, request, query }) => renderAdmin(deps, actor, request, (ctx) => outboxPage(ctx, actor, query)))
      .get(`${MAIL}/:id`, async ({ actor, request, params, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const message = await mail.readMail(actor, idOf(params.id, "message"));
          const notice = query.resent === "1" ? deliveryNotice(message, "Resent") : query.tested === "1" ? deliveryNotice(message, "Test mail queued") : undefined;
          return <MessagePage ctx={ctx} mailOff={mailOff()} message={message} notice={notice} />;
        }),
      )
      .get(`${MAIL}/:id/resend`, async ({ actor, request, params }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const message = await mail.readMail(actor, idOf(params.id, "message"));
          // The same refusal the form would meet, before anyone confirms it.
          if (message.status === "sent") throw conflict(`Message ${message.id} was sent already; it is not sent twice.`);
          return <ResendPage ctx={ctx} mailOff={mailOff()} message={message} />;
        }),
      )
      .post(`${MAIL}/:id/resend`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          const message = await mail.resendMail(actor, idOf(params.id, "message"));
          await audit.record(actor, {
            action: "mail.resend",
            targetType: "mail",
            targetId: message.id,
            via: "web",
            address: addressOf(request, server),
            details: { to: message.recipient },
          });
          return seeOther(`${MAIL}/${message.id}?resent=1`);
        }),
      )
      .post(`${MAIL}/test`, async ({ actor, request, body, server }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const form = formOf(body);
          checkCsrf(actor, form);
          const to = form.get("to") ?? "";
          let message: OutboxMessage;
          try {
            message = await mail.sendTestMail(actor, to);
          } catch (error) {
            if (error instanceof HttpError && error.status === 400 && error.errors) return htmlResponse(await outboxPage(ctx, actor, {}, { to, errors: error.errors }), 400);
            throw error;
          }
          await audit.record(actor, {
            action: "mail.test",
            targetType: "mail",
            targetId: message.id,
            via: "web",
            address: addressOf(request, server),
            details: { to: message.recipient },
          });
          return seeOther(`${MAIL}/${message.id}?tested=1`);
        }),
      )
      // Jobs: the queue and the schedule, retry, cancel (confirmed).
      .get(JOBS, async ({ actor, request, query }) => renderAdmin(deps, actor, request, (ctx) => jobsPage(ctx, actor, query)))
      .get(`${JOBS}/:id/cancel`, async ({ actor, request, params }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const job = await jobs.readJob(actor, idOf(params.id, "job"));
          if (job.status !== "queued") throw conflict(`Job ${job.id} is ${job.status}: only a queued job is cancelled.`);
          return <CancelJobPage ctx={ctx} mailOff={mailOff()} job={job} />;
        }),
      )
      .post(`${JOBS}/:id/cancel`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          const job = await jobs.cancelJob(actor, idOf(params.id, "job"));
          await audit.record(actor, { action: "job.cancel", targetType: "job", targetId: job.id, via: "web", address: addressOf(request, server), details: { name: job.name } });
          return seeOther(`${JOBS}?done=cancelled`);
        }),
      )
      .post(`${JOBS}/:id/retry`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          const job = await jobs.retryJob(actor, idOf(params.id, "job"));
          await audit.record(actor, { action: "job.retry", targetType: "job", targetId: job.id, via: "web", address: addressOf(request, server), details: { name: job.name } });
          return seeOther(`${JOBS}?done=retried`);
        }),
      )
      // Backups: BACKUP_DIR's snapshots, the last scheduled run, "Back up now" and "Verify" (jobs).
      .get(BACKUPS, async ({ actor, request, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const notices: Record<string, string> = {
            backup: "The backup was queued: refresh the page to follow it.",
            verify: "The verification was queued: refresh the page to follow it.",
          };
          return <BackupsPage ctx={ctx} mailOff={mailOff()} view={await backup.readBackups(actor)} notice={notices[text(query.done)]} />;
        }),
      )
      .post(`${BACKUPS}/run`, async ({ actor, request, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          const job = await backup.queueBackup(actor);
          await audit.record(actor, { action: "backup.run", targetType: "job", targetId: job.id, via: "web", address: addressOf(request, server), details: { name: job.name } });
          return seeOther(`${BACKUPS}?done=backup`);
        }),
      )
      .post(`${BACKUPS}/:name/verify`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          const job = await backup.queueVerify(actor, params.name);
          await audit.record(actor, {
            action: "backup.verify",
            targetType: "backup",
            targetId: params.name,
            via: "web",
            address: addressOf(request, server),
            details: { job: job.id },
          });
          return seeOther(`${BACKUPS}?done=verify`);
        }),
      )
      // The audit log.
      .get(AUDIT, async ({ actor, request, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const filters = { action: text(query.action), target_type: text(query.target_type), target_id: text(query.target_id) };
          const result = await audit.search(actor, {
            action: filters.action.trim() || undefined,
            targetType: filters.target_type.trim() || undefined,
            targetId: filters.target_id.trim() || undefined,
            page: query.page,
            size: query.size,
          });
          return <AuditPage ctx={ctx} mailOff={mailOff()} filters={filters} result={result} />;
        }),
      )
      // Users: the list, one account, its actions (the destructive ones confirmed), a token's revocation.
      .get(USERS, async ({ actor, request, query }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const filters = { q: text(query.q), state: text(query.state) };
          const result = await userAdmin.searchAllUsers(actor, {
            q: filters.q,
            ...stateFilters(filters.state),
            page: text(query.page) || undefined,
            size: text(query.size) || undefined,
          });
          const page = Number(text(query.page) || 1);
          const size = Number(text(query.size) || 10);
          return <UsersPage ctx={ctx} mailOff={mailOff()} filters={filters} result={result} page={page} size={size} />;
        }),
      )
      .get(`${USERS}/:id`, async ({ actor, request, params, query }) =>
        renderAdmin(deps, actor, request, (ctx) => {
          const done = text(query.done);
          return userPage(
            ctx,
            actor,
            params.id,
            done === "revoked" ? "The token was revoked." : Object.hasOwn(USER_ACTION_PAGES, done) ? USER_ACTION_PAGES[actionOf(done)].done : undefined,
          );
        }),
      )
      .get(`${USERS}/:id/:action`, async ({ actor, request, params }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const action = actionOf(params.action);
          const user = await userAdmin.readManagedUser(actor, idOf(params.id, "user"));
          return <ConfirmUserActionPage ctx={ctx} mailOff={mailOff()} user={user} action={action} />;
        }),
      )
      .post(`${USERS}/:id/:action`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          const action = actionOf(params.action);
          checkCsrf(actor, formOf(body));
          const user = await userAdmin[action](actor, idOf(params.id, "user"), { via: "web", address: addressOf(request, server) });
          return seeOther(`${USERS}/${user.id}?done=${action}`);
        }),
      )
      .get(`${USERS}/:id/tokens/:tokenId/revoke`, async ({ actor, request, params }) =>
        renderAdmin(deps, actor, request, async (ctx) => {
          const user = await userAdmin.readManagedUser(actor, idOf(params.id, "user"));
          const token = await tokenOf(actor, Number(user.id), params.tokenId);
          if (token.revokedAt !== null) throw conflict(`Token ${token.id} was revoked already.`);
          return <RevokeTokenPage ctx={ctx} mailOff={mailOff()} user={user} token={token} />;
        }),
      )
      .post(`${USERS}/:id/tokens/:tokenId/revoke`, async ({ actor, request, params, body, server }) =>
        renderAdmin(deps, actor, request, async () => {
          checkCsrf(actor, formOf(body));
          const user = await userAdmin.readManagedUser(actor, idOf(params.id, "user"));
          const token = await tokenOf(actor, Number(user.id), params.tokenId);
          if (token.revokedAt !== null) throw conflict(`Token ${token.id} was revoked already.`);
          await tokens.revokeToken(actor, token.id);
          await audit.record(actor, {
            action: "token.revoke",
            targetType: "token",
            targetId: token.id,
            via: "web",
            address: addressOf(request, server),
            details: { user: user.id, name: token.name },
          });
          return seeOther(`${USERS}/${user.id}?done=revoked`);
        }),
      )
  );
};

/** The routes of this file that take forms (the hooks parse their bodies). */
export const ADMIN_FORM_ROUTES = [
  `POST ${USERS}/:id/:action`,
  `POST ${USERS}/:id/tokens/:tokenId/revoke`,
  `POST ${MAIL}/:id/resend`,
  `POST ${MAIL}/test`,
  `POST ${JOBS}/:id/cancel`,
  `POST ${JOBS}/:id/retry`,
  `POST ${BACKUPS}/run`,
  `POST ${BACKUPS}/:name/verify`,
];
