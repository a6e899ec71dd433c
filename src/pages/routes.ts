// The pages, mounted as one plugin: the static assets and every page group. Each group is one
// file (or folder) here, a client of the same services as the REST API.
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { accountPages, ACCOUNT_FORM_ROUTES } from "./account";
import { assetAt } from "./assets";
import type { PagesDeps } from "./context";
import { homePages } from "./home";

/** `METHOD /path` of page routes that take HTML forms (parsed by the hooks as form bodies). */
export const PAGE_FORM_ROUTES = [...ACCOUNT_FORM_ROUTES];

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
    .use(homePages(http, deps))
    .use(accountPages(http, deps));
