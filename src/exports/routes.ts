// HTTP route of record downloads in an export format: `GET /records/{id}/export/{format}`. (The
// formats served by `GET /api/records/{id}` through Accept are negotiated in records/routes.ts.)
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { singleQueryParams } from "../core/links";
import type { ExportsService } from "./service";

const tags = ["Records"];

export const exportsRoutes = (http: ActorContext, exportsService: ExportsService) =>
  new Elysia().use(http).get(
    "/records/:id/export/:format",
    async ({ actor, params, request }) => {
      const file = await exportsService.exportRecord(actor, params.id, params.format, singleQueryParams(request.url));
      return new Response(file.body, {
        headers: { "content-type": file.contentType, "content-disposition": `attachment; filename=${file.filename}`, etag: file.etag },
      });
    },
    { detail: { summary: "Download a record in an export format (json, json-ld, csl, datacite-json, datacite-xml, dublincore, marcxml, bibtex, geojson, dcat-ap)", tags } },
  );
