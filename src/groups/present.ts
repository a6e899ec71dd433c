// Group rows -> the API's JSON: absolute links and the `+00:00` timestamp format.
import type { Links } from "../core/links";
import { formatIsoTime } from "../core/time";
import type { GroupRow } from "./store";

export function presentGroup(row: GroupRow, links: Links) {
  const self = `/groups/${encodeURIComponent(row.id)}`;
  return {
    id: row.id,
    revision_id: row.revisionId,
    created: formatIsoTime(row.created),
    updated: formatIsoTime(row.updated),
    name: row.name,
    // Not in the spec's list, but InvenioRDM's groups carry it and the search matches it.
    description: row.description,
    is_managed: row.isManaged,
    links: { avatar: links.api(`${self}/avatar.svg`), self: links.api(self) },
  };
}

export type GroupJson = ReturnType<typeof presentGroup>;
