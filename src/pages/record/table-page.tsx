// `/records/{id}/table/{key}`: a CSV or TSV file's first rows as a page of their own, linked from
// the file's preview (record.js moves its table into the landing page when the preview is opened).
import { Elysia } from "elysia";
import { notFound } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { Layout } from "../layout";
import { FileName } from "./file-name";
import { recordUrls, withToken } from "./links";
import { keyOfPath } from "./preview";
import { readTablePreview, tableDelimiter } from "./table-preview";
import { CsvTable } from "./table-view";

export const recordTablePages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia().use(http).get("/records/:id/table/*", async ({ actor, request, params }) => {
    const ctx = await pageContextOf(deps, actor, request);
    return renderOrError(ctx, async () => {
      const { files } = deps.services;
      const isDraft = new URL(request.url).searchParams.get("preview") === "1";
      const key = keyOfPath(params["*"]);
      files.checkKey(key);
      const entry = (await files.readFile(actor, params.id, isDraft, key)) as { mimetype?: unknown; size?: unknown };
      const delimiter = tableDelimiter(entry.mimetype);
      if (!delimiter) throw notFound(`The file '${key}' is not a CSV or TSV table: download it instead.`);
      const table = await readTablePreview(files, actor, params.id, isDraft, key, delimiter);
      const urls = recordUrls(params.id, actor.linkToken, isDraft);
      const back = isDraft ? withToken(`/records/${encodeURIComponent(params.id)}?preview=1`, actor.linkToken) : urls.page();
      return (
        <Layout ctx={ctx} title={`Table: ${key.length > 40 ? `${key.slice(0, 39)}…` : key}`}>
          <div class="record">
            <p>
              <a href={back}>Back to the record</a>
            </p>
            <h1>
              <FileName name={key} />
            </h1>
            <CsvTable name={key} table={table} size={typeof entry.size === "number" ? entry.size : 0} download={urls.content(key)} />
          </div>
        </Layout>
      );
    });
  });
