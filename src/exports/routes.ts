// HTTP routes of a published record's representations: `GET /api/records/{id}` (the record JSON,
// or an export format chosen by Accept or `?style=`, with Signposting links) and the download
// route `GET /records/{id}/export/{format}`.
import { Elysia } from "elysia";
import type { Actor } from "../core/actor";
import { revisionEtag } from "../core/etag";
import type { ActorContext } from "../core/http";
import type { ExportsService } from "./service";

const tags = ["Records"];

/** Told of each record read through `GET /api/records/{id}`, in any format (statistics decide what counts). */
export type RecordViewHook = (view: { recordId: string; parentId: string; actor: Actor; request: Request }) => void;

export const exportsRoutes = (http: ActorContext, exportsService: ExportsService, onView: RecordViewHook = () => {}) =>
  new Elysia()
    .use(http)
    .get(
      "/api/records/:id",
      ({ actor, params, request, set }) => {
        const read = exportsService.readRecord(actor, params.id, request);
        onView({ recordId: read.record.id, parentId: read.record.parent?.id, actor, request });
        const headers = { link: read.signposting, vary: "Accept" };
        if (read.body !== null) return new Response(read.body, { headers: { ...headers, "content-type": read.contentType } });
        // The record JSON goes through the API's JSON path (vendor types, prettyprint) with its ETag.
        Object.assign(set.headers, headers, { etag: revisionEtag(read.record.revision_id) });
        return read.record;
      },
      { detail: { summary: "Read a published record (JSON, or an export format chosen by Accept or ?style=)", tags } },
    )
    .get(
      "/records/:id/export/:format",
      ({ actor, params, request }) => {
        const file = exportsService.exportRecord(actor, params.id, params.format, request);
        return new Response(file.body, {
          headers: { "content-type": file.contentType, "content-disposition": `attachment; filename=${file.filename}`, etag: file.etag },
        });
      },
      { detail: { summary: "Download a record in an export format (json, json-ld, csl, datacite-json, datacite-xml, dublincore, marcxml, bibtex, geojson, dcat-ap)", tags } },
    );
