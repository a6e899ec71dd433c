// The audit log: every administrator action, filtered by action and target.
import { Elysia } from "elysia";
import type { ActorContext } from "../../core/http";
import { AuditPage, AUDIT } from "./audit";
import { renderAdmin } from "./frame";
import { text, type AdminKit } from "./kit";

export const auditRoutes = (http: ActorContext, kit: AdminKit) =>
  new Elysia().use(http).get(AUDIT, async ({ actor, request, query }) =>
    renderAdmin(kit.deps, actor, request, async (ctx) => {
      const filters = { action: text(query.action), target_type: text(query.target_type), target_id: text(query.target_id) };
      const result = await kit.services.audit.search(actor, {
        action: filters.action.trim() || undefined,
        targetType: filters.target_type.trim() || undefined,
        targetId: filters.target_id.trim() || undefined,
        page: query.page,
        size: query.size,
      });
      return <AuditPage ctx={ctx} mailOff={kit.mailOff()} filters={filters} result={result} />;
    }),
  );

export const AUDIT_FORM_ROUTES: string[] = [];
