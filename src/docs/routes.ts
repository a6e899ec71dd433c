// API documentation: the OpenAPI description at /api/docs/json and an interactive page at
// /api/docs whose scripts are embedded in the executable, so it works on a LAN without internet.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "text" };

const ASSETS = "/api/docs/assets";
const cacheable = { "Cache-Control": "public, max-age=86400" };

export const docsRoutes = (version: string) =>
  new Elysia()
    .use(
      openapi({
        path: "/api/docs",
        specPath: "/api/docs/json",
        provider: "swagger-ui",
        // staticFile: false, or the avatar.svg routes look like static files and go unlisted.
        exclude: { paths: [/^\/api\/docs/], staticFile: false },
        // The plugin's default spec URL is relative and resolves wrongly from /api/docs; give it whole.
        swagger: { url: "/api/docs/json", cdn: `${ASSETS}/swagger-ui-bundle.js`, theme: `${ASSETS}/swagger-ui.css`, autoDarkMode: false } as object,
        documentation: {
          info: {
            title: "Cairn REST API",
            version,
            description: "Research-data repository; the API follows InvenioRDM's REST API. Authenticate with 'Authorization: Bearer <token>'.",
          },
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
          security: [{ bearer: [] }],
        },
      }),
    )
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => new Response(swaggerBundle, { headers: { "Content-Type": "text/javascript; charset=utf-8", ...cacheable } }), {
      detail: { hide: true },
    })
    .get(`${ASSETS}/swagger-ui.css`, () => new Response(swaggerCss, { headers: { "Content-Type": "text/css; charset=utf-8", ...cacheable } }), {
      detail: { hide: true },
    });
