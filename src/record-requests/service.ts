// The requests about a record (`GET /api/records/{id}/requests`, InvenioRDM's record requests):
// the record read as its own URL allows, then the requests engine's listing of that topic, in
// which the caller sees only the requests they may read.
import type { Actor } from "../core/actor";
import type { ListParams } from "../requests/model";
import type { RequestsService } from "../requests/service";

export interface RecordRequestsDeps {
  /** A published record the caller may read (records' curation side): 401/403/404/410 otherwise. */
  records: { readable(actor: Actor, id: string): Promise<unknown> };
  requests: Pick<RequestsService, "searchRecordRequests">;
}

export type RecordRequestsService = ReturnType<typeof createRecordRequestsService>;

export function createRecordRequestsService(deps: RecordRequestsDeps) {
  return {
    async searchRecordRequests(actor: Actor, id: string, params: ListParams) {
      await deps.records.readable(actor, id);
      return deps.requests.searchRecordRequests(actor, id, `/records/${id}/requests`, params);
    },
  };
}
