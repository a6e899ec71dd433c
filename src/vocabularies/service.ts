// Vocabularies: search and read for everyone, writes for administrators, bulk imports and the
// shipped fixtures (loaded on first start, upgraded when a release ships new data).
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { checkRevision } from "../core/etag";
import { badRequest, conflict, notFound, validationError } from "../core/errors";
import { parsePage, searchEnvelope } from "../core/paging";
import type { Db } from "../db/port";
import type { AuditService } from "../audit/service";
import type { AuditInput } from "../audit/model";
import { parseQueryString } from "../search/query-string";
import { chooseSort } from "../search/sorts";
import { KINDS, isVocabularyType, sortOptions } from "./kinds";
import { GENERIC_TYPES, SPECIFIC_TYPES, type EditRule, type ImportItem, type VocabularyEntry, type VocabularyType } from "./model";
import { editRuleOf } from "./policy";
import { vocabularySearchOf } from "./engines";
import { presentEntry } from "./present";
import { recentEntries } from "./recent";
import * as store from "./store";
import { validateEntry } from "./validate";

export interface SearchQuery {
  q?: string;
  suggest?: string;
  tags?: string | string[];
  sort?: string;
  size?: string;
  page?: string;
}

export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  skipped: Record<string, number>;
}

const IMPORT_BATCH = 5000;

/** How an administrator's change came in (the audit entry's `via` and the client's address; null from the CLI). */
export type VocabularyOrigin = Pick<AuditInput, "via" | "address">;

/** The changes an administrator makes by hand, as the audit log names them (`vocabulary.{action}`). */
export type VocabularyAction = "create" | "update" | "delete" | "retire" | "restore" | "import";

export interface VocabulariesDeps extends Deps {
  audit: Pick<AuditService, "record">;
}

export type VocabulariesService = ReturnType<typeof createVocabulariesService>;

export function createVocabulariesService(deps: VocabulariesDeps) {
  const { db, clock, config, links } = deps;
  const recent = recentEntries();
  /** The engine's vocabulary index: searched here, kept in step by the store's writes. */
  const index = vocabularySearchOf(db);

  /** The audit entry of a change to entry `id` of `type` (or to the whole type: imports), written in the change's transaction `tx`. */
  const audited = (actor: Actor, tx: Db, action: VocabularyAction, type: VocabularyType, id: string | null, origin: VocabularyOrigin, details?: Record<string, unknown>) =>
    deps.audit.record(
      actor,
      { action: `vocabulary.${action}`, targetType: "vocabulary", targetId: id === null ? type : `${type}/${id}`, details, via: origin.via, address: origin.address ?? null },
      tx,
    );
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };

  function typeOf(type: string): VocabularyType {
    if (!isVocabularyType(type)) throw notFound(`Vocabulary type '${type}' not found.`);
    return type;
  }

  async function loadRow(type: VocabularyType, id: string) {
    const row = await store.findEntry(db, type, id);
    if (!row) throw notFound(`The ${type} entry '${id}' does not exist.`);
    return row;
  }

  /** The affiliation rule: an affiliation with a known id takes the vocabulary's own name. */
  async function resolveAffiliations(entry: Record<string, unknown>, on: Db = db) {
    if (!Array.isArray(entry.affiliations)) return;
    for (const a of entry.affiliations as { id?: string; name: string }[]) {
      if (!a.id) continue;
      const known = await store.findEntry(on, "affiliations", a.id);
      if (known) a.name = (JSON.parse(known.data) as { name: string }).name;
    }
  }

  async function validated(type: VocabularyType, body: unknown) {
    const { entry, errors } = validateEntry(type, body);
    if (errors.length) throw validationError(errors);
    if (type === "names") await resolveAffiliations(entry);
    return entry;
  }

  /** The type's rule; a 400 for a read-only type. */
  function ruleOf(type: VocabularyType): EditRule {
    const rule = editRuleOf(type);
    if (!rule) throw badRequest(`The ${type} vocabulary is read-only: its entries come from the shipped lists or from imports.`);
    return rule;
  }

  async function create(actor: Actor, rawType: string, body: unknown, origin: VocabularyOrigin) {
    requireAdmin(actor);
    const type = typeOf(rawType);
    const entry = await validated(type, body);
    if (await store.findEntry(db, type, entry.id)) throw validationError([{ field: "id", messages: [`An entry with id '${entry.id}' exists already.`] }]);
    await db.write(async (tx) => {
      await store.upsertEntry(tx, type, entry, clock.now(), index);
      await audited(actor, tx, "create", type, entry.id, origin);
    });
    return presentEntry(await loadRow(type, entry.id), links);
  }

  async function update(actor: Actor, rawType: string, id: string, body: unknown, ifMatch: string | null | undefined, origin: VocabularyOrigin) {
    requireAdmin(actor);
    const type = typeOf(rawType);
    const current = await loadRow(type, id);
    checkRevision(ifMatch, current.revision_id);
    const entry = await validated(type, { ...(body as object), id });
    await db.write(async (tx) => {
      const outcome = await store.upsertEntry(tx, type, entry, clock.now(), index);
      await audited(actor, tx, "update", type, id, origin, { outcome });
    });
    return presentEntry(await loadRow(type, id), links);
  }

  return {
    async search(_actor: Actor, rawType: string, query: SearchQuery) {
      const type = typeOf(rawType);
      const kind = KINDS[type];
      const page = parsePage(query, limits);
      const hasQuery = Boolean(query.q?.trim() || query.suggest?.trim());
      // bestmatch needs a query; without one the type's default applies, as the spec says.
      const sort = chooseSort({ options: sortOptions(kind), requested: query.sort, hasQuery, defaultSort: kind.nameSort });
      const parsed = parseQueryString(query.q ?? "");
      const tags = (Array.isArray(query.tags) ? query.tags : query.tags ? [query.tags] : [])
        .flatMap((t) => t.split(","))
        .map((t) => t.trim())
        .filter(Boolean);
      const { rows, total } = await index.searchEntries(db, type, {
        query: parsed,
        suggest: query.suggest ?? "",
        tags,
        order: sort === kind.nameSort ? "name" : (sort as store.Order),
        limit: page.size,
        offset: page.offset,
      });
      return searchEnvelope({
        items: rows.map((r) => presentEntry(r, links)),
        total,
        page,
        url: (q) => links.api(KINDS[type].path(type), q),
        params: { q: query.q, suggest: query.suggest, tags: tags.length ? tags.join(",") : undefined },
        sortBy: sort,
      });
    },

    /** The stored entry (no timestamps or links) or null: for validating records against vocabularies. */
    lookup: Object.assign(
      (type: string, id: string): Promise<VocabularyEntry | null> => {
        if (!isVocabularyType(type)) return Promise.resolve(null);
        return store.findEntry(db, type, id).then((row) => (row ? recent.entryOf(type, id, row.data) : null));
      },
      { recent: recent.recent },
    ),

    async read(_actor: Actor, rawType: string, id: string) {
      const type = typeOf(rawType);
      return presentEntry(await loadRow(type, id), links);
    },

    create,
    update,

    /** Every type with its offered entries and what the administration may do to it by hand. */
    async listTypes(actor: Actor): Promise<{ type: VocabularyType; entries: number; rule: EditRule | null }[]> {
      requireAdmin(actor);
      const counts = new Map((await store.listCounts(db)).map((c) => [c.type, c.entries]));
      return [...GENERIC_TYPES, ...SPECIFIC_TYPES].map((type) => ({ type, entries: counts.get(type) ?? 0, rule: editRuleOf(type) }));
    },

    /** A type the administration edits by hand, and its rule: 404 for an unknown type, 400 for a read-only one. */
    async editableType(actor: Actor, rawType: string): Promise<{ type: VocabularyType; rule: EditRule }> {
      requireAdmin(actor);
      const type = typeOf(rawType);
      return { type, rule: ruleOf(type) };
    },

    /** Adds an entry by hand, where the type's rule allows it (the administration's form). */
    async addEntry(actor: Actor, rawType: string, body: unknown, origin: VocabularyOrigin) {
      requireAdmin(actor);
      if (!ruleOf(typeOf(rawType)).add) throw badRequest(`Entries are not added to ${rawType} by hand.`);
      return create(actor, rawType, body, origin);
    },

    /** Edits an entry by hand: the whole entry, or only its labels where the rule says so. */
    async editEntry(actor: Actor, rawType: string, id: string, body: Record<string, unknown>, ifMatch: string | null | undefined, origin: VocabularyOrigin) {
      requireAdmin(actor);
      const type = typeOf(rawType);
      const rule = ruleOf(type);
      const stored = JSON.parse((await loadRow(type, id)).data) as Record<string, unknown>;
      return update(actor, type, id, rule.fields === "title" ? { ...stored, title: body.title } : body, ifMatch, origin);
    },

    /**
     * Retires an entry (or offers it again): it leaves the searches and suggestions new deposits
     * choose from, and still resolves by id for the records that name it (store.setRetired).
     */
    async setRetired(actor: Actor, rawType: string, id: string, retire: boolean, origin: VocabularyOrigin) {
      requireAdmin(actor);
      const type = typeOf(rawType);
      if (!ruleOf(type).retire) throw badRequest(`Entries of ${type} are not retired by hand.`);
      await loadRow(type, id);
      await db.write(async (tx) => {
        // Read again in the transaction: of two administrators retiring it at once, the second gets the 409.
        const row = await store.findEntry(tx, type, id);
        if (!row) throw notFound(`The ${type} entry '${id}' does not exist.`);
        if (retire === (row.retired_at !== null && row.retired_at !== undefined)) throw conflict(`The ${type} entry '${id}' is ${retire ? "retired already" : "not retired"}.`);
        await store.setRetired(tx, type, row, retire, clock.now(), index);
        await audited(actor, tx, retire ? "retire" : "restore", type, id, origin);
      });
      return presentEntry(await loadRow(type, id), links);
    },

    /** A type's retired entries, paged (administrators). */
    async listRetired(actor: Actor, rawType: string, query: { page?: string; size?: string }) {
      requireAdmin(actor);
      const type = typeOf(rawType);
      const page = parsePage(query, limits);
      const { rows, total } = await store.listRetired(db, type, page.size, page.offset);
      return { entries: rows.map((r) => presentEntry(r, links)), total, page: page.page, size: page.size };
    },

    async remove(actor: Actor, rawType: string, id: string, ifMatch: string | null | undefined, origin: VocabularyOrigin) {
      requireAdmin(actor);
      const type = typeOf(rawType);
      checkRevision(ifMatch, (await loadRow(type, id)).revision_id);
      await db.write(async (tx) => {
        // Another administrator's delete may have come first: only the one that removed it is recorded.
        if (await store.deleteEntry(tx, type, id, index)) await audited(actor, tx, "delete", type, id, origin);
      });
    },

    /**
     * Loads the shipped controlled vocabularies on first start, and again when a release ships
     * different data (entries are upserted: ones an administrator added stay). Null when current.
     *
     * The transaction is opened before this returns (no await ahead of `write`), and the version is
     * read inside it: the port holds every later statement until it ends, so a caller that starts
     * the app without awaiting this still has its first request see the vocabularies.
     */
    loadFixtures(shipped: () => { type: VocabularyType; entries: object[] }[], version: string): Promise<ImportSummary | null> {
      return db.write(async (tx) => {
        if ((await store.findFixtureVersion(tx, "vocabularies")) === version) return null;
        const now = clock.now();
        const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, skipped: {} };
        for (const { type, entries } of shipped()) {
          const outcomes = await store.upsertEntries(tx, type, entries as unknown as { id: string }[], now, index);
          for (const outcome of ["created", "updated", "unchanged"] as const) summary[outcome] += outcomes[outcome];
        }
        await store.saveFixtureVersion(tx, "vocabularies", version, now);
        return summary;
      });
    },

    /**
     * Writes every offered entry's search-index rows again, in batched transactions: a database
     * copied from another engine (`cairn db copy`, a restore) has the entries but not this
     * engine's index of them. Returns how many entries were indexed.
     */
    async rebuildIndex(actor: Actor, onProgress?: (done: number) => void): Promise<number> {
      requireAdmin(actor);
      let after = 0;
      let done = 0;
      for (;;) {
        const rows = await db.write(async (tx) => {
          const batch = await store.listOfferedEntries(tx, after, 2000);
          for (const row of batch) {
            await index.unindexEntry(tx, row.type, row.pk);
            await index.indexEntry(tx, row.type, row.pk, JSON.parse(row.data) as Record<string, unknown>);
          }
          return batch;
        });
        if (!rows.length) return done;
        after = rows.at(-1)!.pk;
        onProgress?.((done += rows.length));
      }
    },

    /**
     * Writes imported entries in batched transactions; re-importing updates, never duplicates.
     * `audit`: an administrator's import run directly (the CLI's), recorded with its first batch;
     * the import job's run is not, its queueing was (imports.ts).
     */
    async importEntries(
      actor: Actor,
      type: VocabularyType,
      items: AsyncIterable<ImportItem<object>>,
      onBatch?: (summary: ImportSummary) => void,
      audit?: { origin: VocabularyOrigin; details: Record<string, unknown> },
    ): Promise<ImportSummary> {
      requireAdmin(actor);
      const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, skipped: {} };
      let batch: Record<string, unknown>[] = [];
      let pendingAudit = audit;
      const flush = async () => {
        const now = clock.now();
        await db.write(async (tx) => {
          if (pendingAudit) await audited(actor, tx, "import", type, null, pendingAudit.origin, pendingAudit.details);
          const valid: ReturnType<typeof validateEntry>["entry"][] = [];
          for (const body of batch) {
            const { entry, errors } = validateEntry(type, body);
            if (errors.length) {
              const reason = `invalid ${errors[0]!.field}: ${errors[0]!.messages[0]}`;
              summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1;
              continue;
            }
            if (type === "names") await resolveAffiliations(entry, tx);
            valid.push(entry);
          }
          const outcomes = await store.upsertEntries(tx, type, valid, now, index);
          for (const outcome of ["created", "updated", "unchanged"] as const) summary[outcome] += outcomes[outcome];
        });
        pendingAudit = undefined;
        batch = [];
        onBatch?.(summary);
      };
      for await (const item of items) {
        if ("skip" in item) summary.skipped[item.skip] = (summary.skipped[item.skip] ?? 0) + 1;
        else batch.push(item.entry as Record<string, unknown>);
        if (batch.length >= IMPORT_BATCH) await flush();
      }
      await flush();
      return summary;
    },
  };
}
