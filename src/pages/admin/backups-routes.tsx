// Backups: BACKUP_DIR's snapshots, the last scheduled run, "Back up now" and "Verify" (jobs).
import { Elysia } from "elysia";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, seeOther } from "../http";
import { BACKUPS, BackupsPage } from "./backups";
import { renderAdmin } from "./frame";
import { text, type AdminKit } from "./kit";

export const backupsRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { backup } = kit.services;
  const notices: Record<string, string> = {
    backup: "The backup was queued: refresh the page to follow it.",
    verify: "The verification was queued: refresh the page to follow it.",
  };
  return new Elysia()
    .use(http)
    .get(BACKUPS, async ({ actor, request, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => <BackupsPage ctx={ctx} mailOff={kit.mailOff()} view={await backup.readBackups(actor)} notice={notices[text(query.done)]} />),
    )
    .post(`${BACKUPS}/run`, async ({ actor, request, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        await backup.queueBackup(actor, kit.origin(request, server));
        return seeOther(`${BACKUPS}?done=backup`);
      }),
    )
    .post(`${BACKUPS}/:name/verify`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        await backup.queueVerify(actor, params.name, kit.origin(request, server));
        return seeOther(`${BACKUPS}?done=verify`);
      }),
    );
};

export const BACKUPS_FORM_ROUTES = [`POST ${BACKUPS}/run`, `POST ${BACKUPS}/:name/verify`];
