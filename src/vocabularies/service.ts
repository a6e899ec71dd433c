// Vocabularies: search and read for everyone, writes for administrators, bulk imports and the
// shipped fixtures (loaded on first start, upgraded when a release ships new data).
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { checkRevision } from "../core/etag";
import { notFound, validationError } from "../core/errors";
import { parsePage, searchEnvelope } from "../core/paging";
import { compileQuery } from "../search/sqlite/compile";
import { expandWildcards, ftsVocabulary } from "../search/sqlite/wildcards";
import { phraseCount, toFtsSuggest } from "../search/sqlite/fts";
import { parseQueryString } from "../search/query-string";
import { chooseSort } from "../search/sorts";
import { writeTransaction } from "../db/sqlite/connection";
import { KINDS, isVocabularyType, searchSchemaOf, sortOptions } from "./kinds";
import type { ImportItem, VocabularyEntry, VocabularyType } from "./model";
import { presentEntry } from "./present";
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

export type VocabulariesService = ReturnType<typeof createVocabulariesService>;

export function createVocabulariesService(deps: Deps) {
  const { db, clock, config, links } = deps;
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };

  function typeOf(type: string): VocabularyType {
    if (!isVocabularyType(type)) throw notFound(`Vocabulary type '${type}' not found.`);
    return type;
  }

  function loadRow(type: VocabularyType, id: string) {
    const row = store.findEntry(db, type, id);
    if (!row) throw notFound(`The ${type} entry '${id}' does not exist.`);
    return row;
  }

  /** The affiliation rule: an affiliation with a known id takes the vocabulary's own name. */
  function resolveAffiliations(entry: Record<string, unknown>) {
    if (!Array.isArray(entry.affiliations)) return;
    for (const a of entry.affiliations as { id?: string; name: string }[]) {
      if (!a.id) continue;
      const known = store.findEntry(db, "affiliations", a.id);
      if (known) a.name = (JSON.parse(known.data) as { name: string }).name;
    }
  }

  function validated(type: VocabularyType, body: unknown) {
    const { entry, errors } = validateEntry(type, body);
    if (errors.length) throw validationError(errors);
    if (type === "names") resolveAffiliations(entry);
    return entry;
  }

  return {
    search(_actor: Actor, rawType: string, query: SearchQuery) {
      const type = typeOf(rawType);
      const kind = KINDS[type];
      const page = parsePage(query, limits);
      const hasQuery = Boolean(query.q?.trim() || query.suggest?.trim());
      // bestmatch needs a query; without one the type's default applies, as the spec says.
      const sort = chooseSort({ options: sortOptions(kind), requested: query.sort, hasQuery, defaultSort: kind.nameSort });
      // The same query compiler as record search: a query that is one full-text condition is a
      // MATCH the store can rank; anything else (e.g. `-word`) is a condition beside it.
      // `?` and inner `*` expand to the index's own terms, as in record search (search/sqlite/wildcards.ts).
      const schema = searchSchemaOf(kind);
      const compiled = compileQuery(expandWildcards(parseQueryString(query.q ?? ""), schema, ftsVocabulary(db.$client, schema.fts.table)), schema);
      const condition = compiled.ftsOnly === null && compiled.where !== "1 = 1" ? { sql: compiled.where, params: compiled.params } : null;
      const parts = [compiled.ftsOnly, toFtsSuggest(query.suggest ?? "", kind.suggestColumns)].filter((p): p is string => p !== null);
      const tags = (Array.isArray(query.tags) ? query.tags : query.tags ? [query.tags] : [])
        .flatMap((t) => t.split(","))
        .map((t) => t.trim())
        .filter(Boolean);
      const match = parts.length ? parts.join(" AND ") : null;
      const { rows, total } = store.searchEntries(db, type, {
        match,
        condition,
        phrases: phraseCount(match),
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
    lookup(type: string, id: string): VocabularyEntry | null {
      if (!isVocabularyType(type)) return null;
      const row = store.findEntry(db, type, id);
      return row ? (JSON.parse(row.data) as VocabularyEntry) : null;
    },

    read(_actor: Actor, rawType: string, id: string) {
      const type = typeOf(rawType);
      return presentEntry(loadRow(type, id), links);
    },

    create(actor: Actor, rawType: string, body: unknown) {
      requireAdmin(actor);
      const type = typeOf(rawType);
      const entry = validated(type, body);
      if (store.findEntry(db, type, entry.id)) throw validationError([{ field: "id", messages: [`An entry with id '${entry.id}' exists already.`] }]);
      writeTransaction(db, () => store.upsertEntry(db, type, entry, clock.now()));
      return presentEntry(loadRow(type, entry.id), links);
    },

    update(actor: Actor, rawType: string, id: string, body: unknown, ifMatch?: string | null) {
      requireAdmin(actor);
      const type = typeOf(rawType);
      const current = loadRow(type, id);
      checkRevision(ifMatch, current.revision_id);
      const entry = validated(type, { ...(body as object), id });
      writeTransaction(db, () => store.upsertEntry(db, type, entry, clock.now()));
      return presentEntry(loadRow(type, id), links);
    },

    remove(actor: Actor, rawType: string, id: string, ifMatch?: string | null) {
      requireAdmin(actor);
      const type = typeOf(rawType);
      checkRevision(ifMatch, loadRow(type, id).revision_id);
      writeTransaction(db, () => store.deleteEntry(db, type, id));
    },

    /**
     * Loads the shipped controlled vocabularies on first start, and again when a release ships
     * different data (entries are upserted: ones an administrator added stay). Null when current.
     */
    loadFixtures(shipped: () => { type: VocabularyType; entries: object[] }[], version: string): ImportSummary | null {
      if (store.findFixtureVersion(db, "vocabularies") === version) return null;
      const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, skipped: {} };
      const now = clock.now();
      writeTransaction(db, () => {
        for (const { type, entries } of shipped()) {
          for (const entry of entries) summary[store.upsertEntry(db, type, entry as { id: string }, now)]++;
        }
        store.saveFixtureVersion(db, "vocabularies", version, now);
      });
      return summary;
    },

    /** Writes imported entries in batched transactions; re-importing updates, never duplicates. */
    async importEntries(actor: Actor, type: VocabularyType, items: AsyncIterable<ImportItem<object>>, onBatch?: (summary: ImportSummary) => void): Promise<ImportSummary> {
      requireAdmin(actor);
      const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, skipped: {} };
      let batch: Record<string, unknown>[] = [];
      const flush = () => {
        const now = clock.now();
        writeTransaction(db, () => {
          for (const body of batch) {
            const { entry, errors } = validateEntry(type, body);
            if (errors.length) {
              const reason = `invalid ${errors[0]!.field}: ${errors[0]!.messages[0]}`;
              summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1;
              continue;
            }
            if (type === "names") resolveAffiliations(entry);
            summary[store.upsertEntry(db, type, entry, now)]++;
          }
        });
        batch = [];
        onBatch?.(summary);
      };
      for await (const item of items) {
        if ("skip" in item) summary.skipped[item.skip] = (summary.skipped[item.skip] ?? 0) + 1;
        else batch.push(item.entry as Record<string, unknown>);
        if (batch.length >= IMPORT_BATCH) flush();
      }
      flush();
      return summary;
    },
  };
}
