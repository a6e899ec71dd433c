// API documentation: the OpenAPI description at /api/docs/json and an interactive page at
// /api/docs whose scripts are embedded in the executable, so it works on a LAN without internet.
// The page is ours, not the plugin's: the plugin's starts Swagger UI with an inline script, which
// a content security policy that forbids inline scripts would block.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";

const ASSETS = "/api/docs/assets";
const cacheable = { "Cache-Control": "public, max-age=86400" };
const TITLE = "Cairn REST API";

/**
 * Scripts and styles from this server only, no inline script (checked in headless Chromium: the
 * page renders every operation, no violation reported). Inline styles stay allowed because Swagger
 * UI renders descriptions as HTML that may carry style attributes; its icons are data: images;
 * "Try it out" calls the API on the same origin.
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${TITLE}</title>
  <link rel="stylesheet" href="${ASSETS}/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS}/swagger-ui-bundle.js"></script>
  <script src="${ASSETS}/start.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({ url: "/api/docs/json", dom_id: "#swagger-ui" });\n`;

const asset = (body: string, type: string) => () => new Response(body, { headers: { "Content-Type": type, ...cacheable } });

/**
 * Swagger UI's 1.9 MB, loaded at the first request for it: held from the start, the strings cost
 * the server 7-10 MB of resident memory (measured on the executable) that most servers never use.
 */
const lazyAsset = (load: () => Promise<{ default: string }>, type: string) => async () => asset((await load()).default, type)();

export const docsRoutes = (version: string) =>
  new Elysia()
    .use(
      openapi({
        path: "/api/docs",
        specPath: "/api/docs/json",
        provider: null,
        // staticFile: false, or the avatar.svg routes look like static files and go unlisted.
        exclude: { paths: [/^\/api\/docs/], staticFile: false },
        documentation: {
          info: {
            title: TITLE,
            version,
            description: "Research-data repository; the API follows InvenioRDM's REST API. Authenticate with 'Authorization: Bearer <token>'.",
          },
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
          security: [{ bearer: [] }],
        },
      }),
    )
    .get("/api/docs", () => new Response(PAGE, { headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": DOCS_CONTENT_SECURITY_POLICY } }), {
      detail: { hide: true },
    })
    .get(
      `${ASSETS}/swagger-ui-bundle.js`,
      lazyAsset(() => import("swagger-ui-dist/swagger-ui-bundle.js", { with: { type: "text" } }), "text/javascript; charset=utf-8"),
      { detail: { hide: true } },
    )
    .get(
      `${ASSETS}/swagger-ui.css`,
      lazyAsset(() => import("swagger-ui-dist/swagger-ui.css", { with: { type: "text" } }), "text/css; charset=utf-8"),
      { detail: { hide: true } },
    )
    .get(`${ASSETS}/start.js`, asset(START, "text/javascript; charset=utf-8"), { detail: { hide: true } });
