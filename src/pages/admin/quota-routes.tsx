// Users › a user › Set quota: the form and its POST (audited by the quotas service, via the web).
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { parseSize } from "../../config";
import { validationError, type FieldError } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, formRefusal, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { idOf, renderAdmin } from "./frame";
import type { AdminKit } from "./kit";
import { quotaPath, QUOTA_ROUTE, QuotaPage, type QuotaForm } from "./quota";

/** A size field: "" is absent (null), a size as settings take it, or a field error. */
function sizeOf(form: QuotaForm, field: "quota_size" | "max_file_size", errors: FieldError[]): number | null {
  const raw = form[field].trim();
  if (raw === "") return null;
  const size = parseSize(raw);
  if (size === null) errors.push({ field, messages: ["Write a size such as 20GB, 500MiB or a number of bytes."] });
  return size;
}

export const quotaRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { userAdmin, quotas } = kit.services;

  async function page(ctx: PageContext, actor: Actor, rawId: string, form: QuotaForm | null, errors?: FieldError[], notice?: string) {
    const user = await userAdmin.readManagedUser(actor, idOf(rawId, "user"));
    const usage = await quotas.readUserUsage(actor, user.id);
    const shown = form ?? { quota_size: usage.custom ? String(usage.quota_size) : "", max_file_size: "", notes: usage.notes };
    const max = deps.services.deps.config.RDM_FILES_DEFAULT_MAX_FILE_SIZE;
    return <QuotaPage ctx={ctx} mailOff={kit.mailOff()} user={user} usage={usage} defaultMaxFileSize={max} form={shown} errors={errors} notice={notice} />;
  }

  return new Elysia()
    .use(http)
    .get(QUOTA_ROUTE, async ({ actor, request, params, query }) =>
      renderAdmin(deps, actor, request, (ctx) => page(ctx, actor, params.id, null, undefined, query.saved === "1" ? "The storage quota was set." : undefined)),
    )
    .post(QUOTA_ROUTE, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const sent = formOf(body);
        checkCsrf(actor, sent);
        const form: QuotaForm = { quota_size: sent.get("quota_size") ?? "", max_file_size: sent.get("max_file_size") ?? "", notes: sent.get("notes") ?? "" };
        const id = idOf(params.id, "user");
        try {
          const errors: FieldError[] = [];
          const quotaSize = sizeOf(form, "quota_size", errors);
          const maxFileSize = sizeOf(form, "max_file_size", errors);
          if (errors.length) throw validationError(errors);
          // A missing quota is the service's refusal (the same message as the API's).
          await quotas.setUserQuota(actor, id, { quota_size: quotaSize, max_file_size: maxFileSize, notes: form.notes }, kit.origin(request, server));
          return seeOther(`${quotaPath(id)}?saved=1`);
        } catch (error) {
          const refusal = formRefusal(error);
          if (!refusal) throw error;
          return htmlResponse(await page(ctx, actor, params.id, form, refusal.errors), refusal.status, refusal.headers);
        }
      }),
    );
};

export const QUOTA_FORM_ROUTES = [`POST ${QUOTA_ROUTE}`];
