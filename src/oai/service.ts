// OAI-PMH: set administration (administrators) and the harvesting endpoint's requests, answered
// as OAI-PMH XML whatever the outcome. (Tombstones are written by writer.ts.)
import type { AuditOrigin } from "../audit/model";
import type { AuditService } from "../audit/service";
import type { Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { notFound, validationError, type FieldError } from "../core/errors";
import { newSecret } from "../core/ids";
import { parsePage, searchEnvelope } from "../core/paging";
import type { Db } from "../db/port";
import type { ExportSettings } from "../exports/types";
import { queryStringProblem } from "../search/query-string";
import { parseRequest, SET_SPEC } from "./arguments";
import { metadataFormats } from "./formats";
import { createListing, type HarvestRecords } from "./listing";
import type { SetBody, SetListQuery } from "./model";
import { checkManageSets } from "./policy";
import { harvestLinks, OAI_PATH, presentFormat, presentSet, type SetJson } from "./present";
import * as store from "./store";
import { getRecord, identify, listItems, listMetadataFormats, listSets, type HarvestSet, type VerbContext } from "./verbs";
import { OaiError, renderError, renderVerb, type Envelope } from "./xml";

export interface OaiDeps extends Deps {
  /** The audit log: creating, changing and deleting a set are recorded in the change's transaction. */
  audit: Pick<AuditService, "record">;
  records: HarvestRecords;
  /** What exports render with (exports/service.ts `context()`). */
  exportContext: ExportSettings;
  /** Addresses of administrators, for Identify's adminEmail when OAISERVER_ADMIN_EMAIL is not set. */
  adminEmails(): Promise<string[]>;
  /** The sets of public communities (`user-<slug>`), listed beside the administrators' sets; `searchPattern` selects their records. */
  communitySets?(): Promise<{ spec: string; name: string; description: string; searchPattern: string }[]>;
}

export type OaiService = ReturnType<typeof createOaiService>;

const EMAIL = /^\S+@(\S+\.)+\S+$/; // emailType of OAI-PMH.xsd

/** The set fields, checked; the spec's field names in the errors. */
function checkSetBody(body: SetBody, errors: FieldError[]) {
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const name = text(body.name);
  const searchPattern = text(body.search_pattern);
  const description = text(body.description);
  if (!name) errors.push({ field: "name", messages: ["Missing data for required field."] });
  else if (name.length > 255) errors.push({ field: "name", messages: ["Length must be between 1 and 255."] });
  if (!searchPattern) errors.push({ field: "search_pattern", messages: ["Missing data for required field."] });
  else {
    const problem = queryStringProblem(searchPattern);
    if (problem) errors.push({ field: "search_pattern", messages: [`Not a valid search query (${problem}).`] });
  }
  return { name, searchPattern, description };
}

export function createOaiService(deps: OaiDeps) {
  const { db, clock, config, links } = deps;
  const listing = createListing(db, deps.records);
  const formats = metadataFormats({ datacentreSymbol: config.DATACITE_DATACENTER_SYMBOL || config.DATACITE_USERNAME || "CAIRN" });
  // Read (made, the first time) at the first harvest: a factory does not reach the database.
  const startedAt = clock.now();
  // The keys are kept, not the read's Promise (see db/port.ts: no database Promise shared between requests).
  let keys: string[] | null = null;
  const tokenKeys = async () => (keys ??= await store.tokenKeys(db, newSecret, startedAt));
  // Default namespace: the host name of BASE_URL (an IPv6 literal without its brackets).
  const idPrefix = config.OAISERVER_ID_PREFIX || new URL(config.BASE_URL).hostname.replace(/^\[|\]$/g, "");
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };

  /** A set's audit entry (`oai-set.create|update|delete`), written in the change's transaction `tx`. */
  const audited = (tx: Db, actor: Actor, origin: AuditOrigin, action: "create" | "update" | "delete", id: number, details: Record<string, unknown>) =>
    deps.audit.record(actor, { action: `oai-set.${action}`, targetType: "oai-set", targetId: id, details, ...origin }, tx);

  async function loadSet(id: string) {
    const row = /^\d{1,15}$/.test(id) ? await store.findSet(db, Number(id)) : null;
    if (!row) throw notFound("The OAI-PMH set does not exist.");
    return row;
  }

  /** Administrators' sets and communities' sets by spec; an administrator's set wins over a community's of the same spec. */
  async function harvestSets(): Promise<HarvestSet[]> {
    const own: HarvestSet[] = await store.listSets(db, "spec", "asc", 0, Number.MAX_SAFE_INTEGER);
    const taken = new Set(own.map((s) => s.spec));
    const communities = ((await deps.communitySets?.()) ?? []).filter((s) => !taken.has(s.spec));
    if (communities.length === 0) return own;
    // Code-point order, as SQLite's BINARY collation sorts the administrators' sets.
    return [...own, ...communities].sort((a, b) => (a.spec < b.spec ? -1 : a.spec > b.spec ? 1 : 0));
  }

  function verbContext(now: number, tokenKeys: string[]): VerbContext {
    let sets: Promise<HarvestSet[]> | undefined;
    return {
      now,
      baseUrl: links.html(OAI_PATH),
      idPrefix,
      pageSize: config.OAISERVER_PAGE_SIZE,
      tokenLifetimeMs: config.OAISERVER_RESUMPTION_TOKEN_EXPIRE_SECONDS * 1000,
      tokenKeys,
      repositoryName: deps.exportContext.siteName,
      adminEmails: async () => {
        const configured = config.OAISERVER_ADMIN_EMAIL ? [config.OAISERVER_ADMIN_EMAIL] : await deps.adminEmails();
        const valid = configured.filter((e) => EMAIL.test(e));
        return valid.length ? valid : [`admin@${idPrefix.includes(".") ? idPrefix : "localhost.localdomain"}`];
      },
      formats,
      // Read once per request: a request asks for them for the set argument and for each page's headers.
      sets: () => (sets ??= harvestSets()),
      listing,
      readPublicRecords: async (ids) => deps.records.readPublicRecords(ids),
      selectedRecordIds: async (ids, patterns) => deps.records.selectedRecordIds(ids, patterns),
      exportContext: deps.exportContext,
    };
  }

  return {
    /** One harvesting request (GET query or POST form, as name/value pairs) -> the OAI-PMH XML answer. */
    async harvest(pairs: [string, string][]): Promise<string> {
      const now = clock.now();
      const envelope: Envelope = { now, baseUrl: links.html(OAI_PATH), args: {} };
      try {
        const request = parseRequest(pairs);
        envelope.args = { verb: request.verb, ...request.args };
        const c = verbContext(now, await tokenKeys());
        const { verb, args } = request;
        if (verb === "Identify") return renderVerb(envelope, verb, await identify(c));
        if (verb === "ListMetadataFormats") return renderVerb(envelope, verb, await listMetadataFormats(c, args));
        if (verb === "ListSets") return renderVerb(envelope, verb, await listSets(c, args));
        if (verb === "GetRecord") return renderVerb(envelope, verb, await getRecord(c, args));
        return renderVerb(envelope, verb, await listItems(c, { verb, args }));
      } catch (error) {
        if (error instanceof OaiError) return renderError(envelope, error);
        throw error;
      }
    },

    async listSets(actor: Actor, query: SetListQuery) {
      checkManageSets(actor);
      const page = parsePage(query, limits);
      const sort = query.sort || "name";
      const direction = query.sort_direction || "asc";
      const errors: FieldError[] = [];
      if (!(store.SET_SORTS as string[]).includes(sort)) errors.push({ field: "sort", messages: [`Must be one of: ${store.SET_SORTS.join(", ")}.`] });
      if (direction !== "asc" && direction !== "desc") errors.push({ field: "sort_direction", messages: ["Must be one of: asc, desc."] });
      if (errors.length) throw validationError(errors, "Invalid querystring parameters.");
      // `q` (InvenioRDM's set search): words starting a word of the name, spec or description.
      const q = typeof query.q === "string" && query.q.trim() ? query.q.trim() : undefined;
      const rows = await store.listSets(db, sort as store.SetSort, direction as "asc" | "desc", page.offset, page.size, q);
      const envelope = searchEnvelope<SetJson>({
        items: rows.map((row) => presentSet(row, links)),
        total: await store.countSets(db, q),
        page,
        url: (q) => links.api("/oaipmh/sets", q),
        params: { q, sort_direction: direction },
        sortBy: sort,
      });
      return { hits: envelope.hits, sortBy: envelope.sortBy, links: { ...envelope.links, ...harvestLinks(links) } };
    },

    async readSet(actor: Actor, id: string) {
      checkManageSets(actor);
      return presentSet(await loadSet(id), links);
    },

    async createSet(actor: Actor, body: SetBody, origin: AuditOrigin) {
      checkManageSets(actor);
      const errors: FieldError[] = [];
      const fields = checkSetBody(body, errors);
      const spec = typeof body.spec === "string" ? body.spec.trim() : "";
      if (!spec) errors.push({ field: "spec", messages: ["Missing data for required field."] });
      else if (spec.length > 255) errors.push({ field: "spec", messages: ["Length must be between 1 and 255."] });
      else if (!SET_SPEC.test(spec)) errors.push({ field: "spec", messages: ["Must be an OAI setSpec: letters, digits and - _ . ! ~ * ' ( ), with ':' separating levels."] });
      else if (await store.findSetBySpec(db, spec)) errors.push({ field: "spec", messages: [`A set with the spec '${spec}' exists already.`] });
      if (errors.length) throw validationError(errors);
      const now = clock.now();
      return await db.write(async (tx) => {
        const created = presentSet(await store.insertSet(tx, { spec, ...fields, created: now, updated: now }), links);
        await audited(tx, actor, origin, "create", created.id, { spec, name: fields.name, search_pattern: fields.searchPattern });
        return created;
      });
    },

    async updateSet(actor: Actor, id: string, body: SetBody, origin: AuditOrigin) {
      checkManageSets(actor);
      const row = await loadSet(id);
      const errors: FieldError[] = [];
      const fields = checkSetBody(body, errors);
      if (body.spec !== undefined && body.spec !== row.spec) errors.push({ field: "spec", messages: ["The spec cannot be changed; delete the set and create it again."] });
      if (errors.length) throw validationError(errors);
      return await db.write(async (tx) => {
        const updated = presentSet((await store.updateSet(tx, row.id, fields, clock.now()))!, links);
        const previous = { name: row.name, search_pattern: row.searchPattern, description: row.description };
        await audited(tx, actor, origin, "update", row.id, { spec: row.spec, name: fields.name, search_pattern: fields.searchPattern, previous });
        return updated;
      });
    },

    async deleteSet(actor: Actor, id: string, origin: AuditOrigin) {
      checkManageSets(actor);
      const row = await loadSet(id);
      await db.write(async (tx) => {
        await store.deleteSet(tx, row.id);
        await audited(tx, actor, origin, "delete", row.id, { spec: row.spec, name: row.name, search_pattern: row.searchPattern });
      });
    },

    listFormats(actor: Actor) {
      checkManageSets(actor);
      const hits = formats.map(presentFormat);
      return { hits: { hits, total: hits.length } };
    },
  };
}
