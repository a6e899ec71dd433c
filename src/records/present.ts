// Record rows -> the API's JSON, with absolute links and the record timestamp format.
import type { Links } from "../core/links";
import { formatRecordTime } from "../core/time";
import type { RecordRow } from "./store";

export function presentRecord(row: RecordRow, links: Links) {
  return {
    ...row.document,
    id: row.id,
    created: formatRecordTime(row.created),
    updated: formatRecordTime(row.updated),
    revision_id: row.revisionId,
    is_published: row.isPublished,
    links: {
      self: links.api(`/records/${row.id}`),
      self_html: links.html(`/records/${row.id}`),
      files: links.api(`/records/${row.id}/files`),
      versions: links.api(`/records/${row.id}/versions`),
      latest: links.api(`/records/${row.id}/versions/latest`),
      latest_html: links.html(`/records/${row.id}/latest`),
    },
  };
}
