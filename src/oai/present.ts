// OAI-PMH sets and metadata formats -> the API's JSON, with links to the harvesting endpoint.
import type { Links } from "../core/links";
import { formatSecondsTime } from "../core/time";
import type { MetadataFormat } from "./formats";
import type { SetRow } from "./store";

export const OAI_PATH = "/oai2d";

export function presentSet(row: SetRow, links: Links) {
  return {
    id: row.id,
    name: row.name,
    spec: row.spec,
    search_pattern: row.searchPattern,
    description: row.description,
    created: formatSecondsTime(row.created),
    updated: formatSecondsTime(row.updated),
    links: {
      self: links.api(`/oaipmh/sets/${row.id}`),
      "oai-listrecords": links.html(OAI_PATH, { verb: "ListRecords", metadataPrefix: "oai_dc", set: row.spec }),
      "oai-listidentifiers": links.html(OAI_PATH, { verb: "ListIdentifiers", metadataPrefix: "oai_dc", set: row.spec }),
    },
  };
}

export type SetJson = ReturnType<typeof presentSet>;

/** The harvesting entry points the set listing links to. */
export function harvestLinks(links: Links) {
  return {
    "oai-listsets": links.html(OAI_PATH, { verb: "ListSets" }),
    "oai-listrecords": links.html(OAI_PATH, { verb: "ListRecords", metadataPrefix: "oai_dc" }),
    "oai-listidentifiers": links.html(OAI_PATH, { verb: "ListIdentifiers", metadataPrefix: "oai_dc" }),
    "oai-identify": links.html(OAI_PATH, { verb: "Identify" }),
  };
}

export const presentFormat = (format: MetadataFormat) => ({ id: format.prefix, schema: format.schema, namespace: format.namespace });
