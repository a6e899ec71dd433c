// `/records/{id}/share`: the Share dialog's content as a page of its own, for whoever manages the
// record. share.js re-reads it after each change (the landing page is not re-read: that would count
// a view), and without scripts it shows who has access.
import type { Actor } from "../../core/actor";
import { forbidden } from "../../core/errors";
import type { JsonObject } from "../../core/json";
import type { PagesDeps } from "../context";
import { Layout, type PageContext } from "../layout";
import { ShareBody } from "./share";
import { loadShareView } from "./share-view";

/** The page, or a 403 for a caller who does not manage the record (the services decide). */
export async function sharePage(ctx: PageContext, deps: PagesDeps, actor: Actor, id: string) {
  const record = (await deps.services.records.readRecord(actor, id)) as JsonObject;
  const view = await loadShareView(deps, actor, record);
  if (!view) throw forbidden("Only the owner and people who manage this record can share it.");
  const title = typeof record.metadata?.title === "string" && record.metadata.title.trim() ? record.metadata.title.trim() : id;
  return (
    <Layout ctx={ctx} title="Share" scripts={["share.js"]}>
      <h1>Share “{title}”</h1>
      <p>
        <a href={`/records/${encodeURIComponent(id)}`}>Back to the record</a>
      </p>
      <div class="card">
        <ShareBody view={view} />
      </div>
    </Layout>
  );
}
