// The pages, mounted as one plugin: the static assets and every page group. Each group is one
// file (or folder) here, a client of the same services as the REST API.
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { accountPages, ACCOUNT_FORM_ROUTES } from "./account";
import { adminPages, ADMIN_FORM_ROUTES } from "./admin/routes";
import { applicationsPages, APPLICATIONS_FORM_ROUTES } from "./applications";
import { asset, assetAt } from "./assets";
import { communitiesPages, COMMUNITIES_FORM_ROUTES } from "./communities/routes";
import type { PagesDeps } from "./context";
import { dashboardPages, DASHBOARD_FORM_ROUTES } from "./dashboard/routes";
import { depositPages, DEPOSIT_FORM_ROUTES } from "./deposit/routes";
import { homePages } from "./home";
import { recordPages, RECORD_FORM_ROUTES } from "./record/routes";
import { badgePages } from "./record/badge";
import { recordTablePages } from "./record/table-page";
import { searchPages } from "./search/routes";
import { signInLinkPages } from "./sign-in-link";
import { oauthPages, OAUTH_FORM_ROUTES } from "./oauth";
import { samlPages, SAML_FORM_ROUTES } from "./saml";
import { lostPasswordPages, LOST_PASSWORD_FORM_ROUTES } from "./lost-password";
import { settingsPages, SETTINGS_FORM_ROUTES } from "./settings";
import { linkedAccountsPages, LINKED_ACCOUNTS_FORM_ROUTES } from "./linked-accounts";
import { signUpPages, SIGN_UP_FORM_ROUTES } from "./sign-up";

/** `METHOD /path` of page routes that take HTML forms (parsed by the hooks as form bodies). */
export const PAGE_FORM_ROUTES = [
  ...ACCOUNT_FORM_ROUTES,
  ...OAUTH_FORM_ROUTES,
  ...SAML_FORM_ROUTES,
  ...SIGN_UP_FORM_ROUTES,
  ...LOST_PASSWORD_FORM_ROUTES,
  ...SETTINGS_FORM_ROUTES,
  ...LINKED_ACCOUNTS_FORM_ROUTES,
  ...APPLICATIONS_FORM_ROUTES,
  ...DEPOSIT_FORM_ROUTES,
  ...DASHBOARD_FORM_ROUTES,
  ...RECORD_FORM_ROUTES,
  ...COMMUNITIES_FORM_ROUTES,
  ...ADMIN_FORM_ROUTES,
];

export const pagesRoutes = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .get("/static/*", ({ request }) => {
      const found = assetAt(new URL(request.url).pathname);
      if (!found) return new Response("Not found.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      if (request.headers.get("if-none-match") === found.etag) return new Response(null, { status: 304, headers: { ETag: found.etag } });
      return new Response(found.body, {
        headers: { "Content-Type": found.type, "Cache-Control": "public, max-age=31536000, immutable", ETag: found.etag },
      });
    })
    // Browsers ask for /favicon.ico by default (pages link the hashed SVG): the same image, kept a day.
    .get("/favicon.ico", () => {
      const icon = asset("favicon.svg");
      return new Response(icon.body, { headers: { "Content-Type": icon.type, "Cache-Control": "public, max-age=86400" } });
    })
    .use(homePages(http, deps))
    .use(accountPages(http, deps))
    .use(signInLinkPages(http, deps))
    .use(oauthPages(http, deps))
    .use(samlPages(http, deps))
    .use(signUpPages(http, deps))
    .use(lostPasswordPages(http, deps))
    .use(settingsPages(http, deps))
    .use(linkedAccountsPages(http, deps))
    .use(applicationsPages(http, deps))
    .use(depositPages(http, deps))
    .use(dashboardPages(http, deps))
    .use(recordPages(http, deps))
    .use(recordTablePages(http, deps))
    .use(badgePages())
    .use(searchPages(http, deps))
    .use(communitiesPages(http, deps))
    .use(adminPages(http, deps));
