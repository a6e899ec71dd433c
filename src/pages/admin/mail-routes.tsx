// Mail: the outbox, one message, resend (confirmed), a test mail.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { conflict, HttpError } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import type { OutboxMessage } from "../../mail/service";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { idOf, renderAdmin } from "./frame";
import { text, type AdminKit, type Query } from "./kit";
import { MAIL, MessagePage, OutboxPage, ResendPage } from "./mail";

/** What a resend or a test mail came to, once its delivery run is over. */
function deliveryNotice(message: OutboxMessage, what: string): string {
  if (message.status === "sent") return `${what}: the SMTP server accepted it.`;
  if (message.status === "failed") return `${what}, but the SMTP server refused it: its answer is below.`;
  return `${what}: it waits in the outbox until MAIL_SERVER is set.`;
}

export const mailRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { mail, users } = kit.services;

  async function outboxPage(ctx: PageContext, actor: Actor, query: Query, form: { to?: string; errors?: HttpError["errors"] } = {}) {
    const filters = { status: text(query.status), q: text(query.q) };
    const result = await mail.searchOutbox(actor, { ...filters, page: query.page, size: query.size });
    const own = actor.kind === "user" ? ((await users.findUserById(actor.userId))?.email ?? "") : "";
    return <OutboxPage ctx={ctx} mailOff={kit.mailOff()} filters={filters} result={result} testTo={form.to ?? own} errors={form.errors} />;
  }

  return new Elysia()
    .use(http)
    .get(MAIL, async ({ actor, request, query }) => renderAdmin(deps, actor, request, (ctx) => outboxPage(ctx, actor, query)))
    .get(`${MAIL}/:id`, async ({ actor, request, params, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const message = await mail.readMail(actor, idOf(params.id, "message"));
        const notice = query.resent === "1" ? deliveryNotice(message, "Resent") : query.tested === "1" ? deliveryNotice(message, "Test mail queued") : undefined;
        return <MessagePage ctx={ctx} mailOff={kit.mailOff()} message={message} notice={notice} />;
      }),
    )
    .get(`${MAIL}/:id/resend`, async ({ actor, request, params }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const message = await mail.readMail(actor, idOf(params.id, "message"));
        // The same refusal the form would meet, before anyone confirms it.
        if (message.status === "sent") throw conflict(`Message ${message.id} was sent already; it is not sent twice.`);
        return <ResendPage ctx={ctx} mailOff={kit.mailOff()} message={message} />;
      }),
    )
    .post(`${MAIL}/:id/resend`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        const message = await mail.resendMail(actor, idOf(params.id, "message"), kit.origin(request, server));
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
          message = await mail.sendTestMail(actor, to, kit.origin(request, server));
        } catch (error) {
          if (error instanceof HttpError && error.status === 400 && error.errors) return htmlResponse(await outboxPage(ctx, actor, {}, { to, errors: error.errors }), 400);
          throw error;
        }
        return seeOther(`${MAIL}/${message.id}?tested=1`);
      }),
    );
};

export const MAIL_FORM_ROUTES = [`POST ${MAIL}/:id/resend`, `POST ${MAIL}/test`];
