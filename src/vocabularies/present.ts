// Vocabulary rows -> the API's JSON: the stored entry plus timestamps, revision and links.
import type { Links } from "../core/links";
import { formatIsoTime } from "../core/time";
import { KINDS, isSpecificType } from "./kinds";
import type { EntryRow, VocabularyType } from "./model";

export function presentEntry(row: EntryRow, links: Links) {
  const type = row.type as VocabularyType;
  const data = JSON.parse(row.data) as Record<string, unknown>;
  return {
    ...data,
    // Generic entries name their type, as InvenioRDM's vocabulary records do.
    ...(isSpecificType(type) ? {} : { type }),
    created: formatIsoTime(row.created),
    updated: formatIsoTime(row.updated),
    revision_id: row.revision_id,
    // Only a retired entry says so: it still resolves for the records that name it.
    ...(row.retired_at ? { retired: formatIsoTime(row.retired_at) } : {}),
    links: { self: links.api(`${KINDS[type].path(type)}/${encodeURIComponent(row.id)}`) },
  };
}
