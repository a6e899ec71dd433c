// The administration's routes: one group per screen (its `*-routes.tsx`), for administrators only
// (everyone else gets the 404 page), each form a POST with the session's CSRF token, each action
// recorded in the audit log. The screens' navigation is ADMIN_SCREENS (frame.tsx).
import { Elysia } from "elysia";
import type { ActorContext } from "../../core/http";
import type { PagesDeps } from "../context";
import { auditRoutes, AUDIT_FORM_ROUTES } from "./audit-routes";
import { backupsRoutes, BACKUPS_FORM_ROUTES } from "./backups-routes";
import { communitiesRoutes, COMMUNITIES_FORM_ROUTES } from "./communities-routes";
import { healthRoutes, HEALTH_FORM_ROUTES } from "./health-routes";
import { jobsRoutes, JOBS_FORM_ROUTES } from "./jobs-routes";
import { adminKit } from "./kit";
import { mailRoutes, MAIL_FORM_ROUTES } from "./mail-routes";
import { oaiSetsRoutes, OAI_SETS_FORM_ROUTES } from "./oai-sets-routes";
import { quotaRoutes, QUOTA_FORM_ROUTES } from "./quota-routes";
import { recordsRoutes, RECORDS_FORM_ROUTES } from "./records-routes";
import { statisticsRoutes, STATISTICS_FORM_ROUTES } from "./statistics-routes";
import { usersRoutes, USERS_FORM_ROUTES } from "./users-routes";
import { vocabulariesRoutes, VOCABULARIES_FORM_ROUTES, VOCABULARIES_UPLOAD_ROUTES } from "./vocabularies-routes";

export const adminPages = (http: ActorContext, deps: PagesDeps) => {
  const kit = adminKit(deps);
  // quotaRoutes before usersRoutes: `/users/:id/quota` is not one of their `/users/:id/:action`.
  return new Elysia()
    .use(healthRoutes(http, kit))
    .use(quotaRoutes(http, kit))
    .use(usersRoutes(http, kit))
    .use(recordsRoutes(http, kit))
    .use(communitiesRoutes(http, kit))
    .use(oaiSetsRoutes(http, kit))
    .use(vocabulariesRoutes(http, kit))
    .use(mailRoutes(http, kit))
    .use(jobsRoutes(http, kit))
    .use(backupsRoutes(http, kit))
    .use(statisticsRoutes(http, kit))
    .use(auditRoutes(http, kit));
};

/** The routes of the administration that take forms (the hooks parse their bodies). */
export const ADMIN_FORM_ROUTES = [
  ...HEALTH_FORM_ROUTES,
  ...USERS_FORM_ROUTES,
  ...QUOTA_FORM_ROUTES,
  ...RECORDS_FORM_ROUTES,
  ...COMMUNITIES_FORM_ROUTES,
  ...OAI_SETS_FORM_ROUTES,
  ...VOCABULARIES_FORM_ROUTES,
  ...MAIL_FORM_ROUTES,
  ...JOBS_FORM_ROUTES,
  ...BACKUPS_FORM_ROUTES,
  ...STATISTICS_FORM_ROUTES,
  ...AUDIT_FORM_ROUTES,
];

/** The routes of the administration whose body is streamed unread (a vocabulary dump's upload). */
export const ADMIN_UPLOAD_ROUTES = [...VOCABULARIES_UPLOAD_ROUTES];
