// The six OAI-PMH 2.0 verbs (§4): each takes checked arguments and returns the verb's element.
import type { RecordDocument } from "../core/record-document";
import { renderContext } from "../exports/context";
import type { ExportSettings } from "../exports/types";
import type { XmlTree } from "../exports/xml/document";
import { dateRange, type OaiRequest } from "./arguments";
import type { MetadataFormat } from "./formats";
import type { Item, Listing, Selection } from "./listing";
import type { SetRow } from "./store";
import { decodeToken, encodeToken, type ListState, type ListVerb } from "./tokens";
import { headerTree, OaiError, oaiDatestamp, recordTree, tokenTree, type Header, type TokenInfo } from "./xml";

/** A set as harvesting sees it: an administrator's or a community's (`parent.communities.ids:"<id>"`), its query selecting the records. */
export type HarvestSet = Pick<SetRow, "spec" | "name" | "description"> & { searchPattern: string | null };

export interface VerbContext {
  now: number;
  baseUrl: string;
  idPrefix: string;
  pageSize: number;
  tokenLifetimeMs: number;
  tokenKeys: string[];
  repositoryName: string;
  adminEmails: () => Promise<string[]>;
  formats: MetadataFormat[];
  /** Every set, by spec. */
  sets: () => Promise<HarvestSet[]>;
  listing: Listing;
  readPublicRecords(ids: string[]): Promise<RecordDocument[]>;
  selectedRecordIds(ids: string[], patterns: string[]): Promise<Set<string>>;
  exportContext: ExportSettings;
}

const OAI_IDENTIFIER_NAMESPACE = "http://www.openarchives.org/OAI/2.0/oai-identifier";
/** repositoryIdentifierType of oai-identifier.xsd: a domain name. */
const REPOSITORY_IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/;

export const oaiIdentifier = (c: VerbContext, recordId: string) => `oai:${c.idPrefix}:${recordId}`;

function recordIdOf(c: VerbContext, identifier: string): string {
  const prefix = `oai:${c.idPrefix}:`;
  if (!identifier.startsWith(prefix) || identifier.length === prefix.length) throw new OaiError("idDoesNotExist", `No item has the identifier '${identifier}'.`);
  return identifier.slice(prefix.length);
}

function formatOf(c: VerbContext, prefix: string): MetadataFormat {
  const format = c.formats.find((f) => f.prefix === prefix);
  if (!format) throw new OaiError("cannotDisseminateFormat", `The metadata format '${prefix}' is not supported; ListMetadataFormats lists those that are.`);
  return format;
}

/** Headers of items, each with the specs of the sets whose query selects its record. */
async function headers(c: VerbContext, items: Item[]): Promise<Header[]> {
  const specs = new Map<string, string[]>();
  const ids = items.map((i) => i.id);
  for (const set of await c.sets()) {
    if (set.searchPattern === null) continue;
    for (const id of await c.selectedRecordIds(ids, [set.searchPattern])) specs.set(id, [...(specs.get(id) ?? []), set.spec]);
  }
  return items.map((i) => ({ identifier: oaiIdentifier(c, i.id), datestamp: i.datestamp, setSpecs: specs.get(i.id) ?? [], deleted: i.deleted }));
}

/** The records of a page, read first, then rendered (no read per record). */
async function recordTrees(c: VerbContext, items: Item[], format: MetadataFormat): Promise<XmlTree[]> {
  const records = await c.readPublicRecords(items.filter((i) => !i.deleted).map((i) => i.id));
  const byId = new Map(records.map((r) => [r.id as string, r]));
  const ctx = await renderContext(c.exportContext, records);
  return (await headers(c, items)).flatMap((header, n) => {
    const item = items[n]!;
    if (item.deleted) return [recordTree(header, null)];
    const record = byId.get(item.id);
    // Made restricted between listing and reading: left for the next harvest to report as deleted.
    return record ? [recordTree(header, format.payload(record, ctx))] : [];
  });
}

export async function identify(c: VerbContext): Promise<XmlTree> {
  const earliest = (await c.listing.earliestDatestamp()) ?? c.now;
  const description = REPOSITORY_IDENTIFIER.test(c.idPrefix)
    ? {
        description: {
          "oai-identifier": {
            "@_xmlns": OAI_IDENTIFIER_NAMESPACE,
            "@_xsi:schemaLocation": `${OAI_IDENTIFIER_NAMESPACE} http://www.openarchives.org/OAI/2.0/oai-identifier.xsd`,
            scheme: "oai",
            repositoryIdentifier: c.idPrefix,
            delimiter: ":",
            sampleIdentifier: oaiIdentifier(c, "abcde-12345"),
          },
        },
      }
    : {};
  return {
    repositoryName: c.repositoryName,
    baseURL: c.baseUrl,
    protocolVersion: "2.0",
    adminEmail: await c.adminEmails(),
    earliestDatestamp: oaiDatestamp(earliest),
    // Records that stop being public are kept as tombstones for good (Cairn decision 7).
    deletedRecord: "persistent",
    granularity: "YYYY-MM-DDThh:mm:ssZ",
    ...description,
  };
}

export async function listMetadataFormats(c: VerbContext, args: Record<string, string>): Promise<XmlTree> {
  if (args.identifier !== undefined) {
    const item = await c.listing.findItem(recordIdOf(c, args.identifier));
    if (!item) throw new OaiError("idDoesNotExist", `No item has the identifier '${args.identifier}'.`);
    if (item.deleted) throw new OaiError("noMetadataFormats", "The item is deleted: no metadata is disseminated for it.");
  }
  return { metadataFormat: c.formats.map((f) => ({ metadataPrefix: f.prefix, schema: f.schema, metadataNamespace: f.namespace })) };
}

export async function getRecord(c: VerbContext, args: Record<string, string>): Promise<XmlTree> {
  const format = formatOf(c, args.metadataPrefix!);
  const item = await c.listing.findItem(recordIdOf(c, args.identifier!));
  if (!item) throw new OaiError("idDoesNotExist", `No item has the identifier '${args.identifier}'.`);
  const [record] = await recordTrees(c, [item], format);
  if (!record) throw new OaiError("idDoesNotExist", `No item has the identifier '${args.identifier}'.`);
  return { record };
}

/** The state of a list: from its resumption token, or new from the request's arguments. */
async function listState(c: VerbContext, verb: ListVerb, args: Record<string, string>, start: (args: Record<string, string>) => Promise<ListState>): Promise<ListState> {
  if (args.resumptionToken === undefined) return start(args);
  const decoded = decodeToken(c.tokenKeys, args.resumptionToken, c.now);
  if ("problem" in decoded) throw new OaiError("badResumptionToken", decoded.problem);
  if (decoded.state.verb !== verb) throw new OaiError("badResumptionToken", `The resumptionToken belongs to a ${decoded.state.verb} list.`);
  return decoded.state;
}

/** The token closing a page: a new one when more follow, an empty one ending a resumed list. */
function pageToken(c: VerbContext, state: ListState, returned: number, next: ListState["after"] | null): TokenInfo | null {
  const completeListSize = Math.max(state.total, state.cursor + returned);
  if (next !== null) {
    const expires = c.now + c.tokenLifetimeMs;
    const token = encodeToken(c.tokenKeys[0]!, { ...state, after: next, cursor: state.cursor + returned, total: completeListSize, expires });
    return { token, cursor: state.cursor, completeListSize, expires };
  }
  return state.cursor > 0 ? { token: "", cursor: state.cursor, completeListSize } : null;
}

/** The set asked for and its sub-sets (`a` holds `a:b`); noSetHierarchy without sets. */
async function setPatterns(c: VerbContext, spec: string | undefined): Promise<string[] | undefined> {
  if (spec === undefined) return undefined;
  const sets = await c.sets();
  if (sets.length === 0) throw new OaiError("noSetHierarchy", "This repository has no sets.");
  return sets.filter((s) => s.spec === spec || s.spec.startsWith(`${spec}:`)).flatMap((s) => (s.searchPattern === null ? [] : [s.searchPattern]));
}

export async function listItems(c: VerbContext, request: OaiRequest & { verb: "ListRecords" | "ListIdentifiers" }): Promise<XmlTree> {
  const state = await listState(c, request.verb, request.args, async (args) => {
    formatOf(c, args.metadataPrefix!);
    const range = dateRange(args);
    const selection: Selection = { patterns: await setPatterns(c, args.set), from: range.from, until: Math.min(range.until ?? Infinity, c.now + 1) };
    return {
      verb: request.verb,
      prefix: args.metadataPrefix,
      set: args.set,
      from: selection.from,
      until: selection.until,
      cursor: 0,
      total: await c.listing.countItems(selection),
      expires: 0,
    };
  });
  const format = formatOf(c, state.prefix ?? "");
  const selection: Selection = { patterns: await setPatterns(c, state.set), from: state.from, until: state.until };
  const after = Array.isArray(state.after) ? state.after : null;
  const items = selection.patterns?.length === 0 ? [] : await c.listing.nextItems(selection, after, c.pageSize + 1);
  if (items.length === 0 && state.cursor === 0) throw new OaiError("noRecordsMatch", "No records match the request's set and dates.");
  // A list element needs at least one item, and the rest of a list can vanish (its set deleted).
  if (items.length === 0)
    throw new OaiError("noRecordsMatch", "The rest of this list is gone since the previous page (its records or its set were removed); start the list again.");
  const page = items.slice(0, c.pageSize);
  const last = page[page.length - 1];
  const token = pageToken(c, state, page.length, items.length > c.pageSize && last ? [last.datestamp, last.id] : null);
  const content: XmlTree = request.verb === "ListRecords" ? { record: await recordTrees(c, page, format) } : { header: (await headers(c, page)).map(headerTree) };
  return token ? { ...content, resumptionToken: tokenTree(token) } : content;
}

export async function listSets(c: VerbContext, args: Record<string, string>): Promise<XmlTree> {
  const sets = await c.sets();
  if (sets.length === 0) throw new OaiError("noSetHierarchy", "This repository has no sets.");
  const state = await listState(c, "ListSets", args, async () => ({ verb: "ListSets", cursor: 0, total: sets.length, expires: 0 }));
  const offset = typeof state.after === "number" ? state.after : 0;
  const page = sets.slice(offset, offset + c.pageSize);
  const token = pageToken(c, state, page.length, offset + c.pageSize < sets.length ? offset + page.length : null);
  const set = page.map((s) => ({
    setSpec: s.spec,
    setName: s.name,
    ...(s.description
      ? {
          setDescription: {
            "oai_dc:dc": {
              "@_xmlns:oai_dc": "http://www.openarchives.org/OAI/2.0/oai_dc/",
              "@_xmlns:dc": "http://purl.org/dc/elements/1.1/",
              "@_xsi:schemaLocation": "http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd",
              "dc:description": s.description,
            },
          },
        }
      : {}),
  }));
  return token ? { set, resumptionToken: tokenTree(token) } : { set };
}
