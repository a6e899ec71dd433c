// The `datacite-register` job: sends a published record's DOI, and its concept DOI, to DataCite.
import type { Config } from "../config";
import type { JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import type { JobContext, JobRegistry } from "../jobs/registry";
import type { VocabularyLookup } from "../vocabularies/model";
import { dataciteAttributes } from "./datacite-attributes";
import { createDataciteClient, dataciteApiUrl, type DataciteClient } from "./datacite-client";
import { readVocabularyEntries } from "./vocabulary-entries";

export type DataciteConfig = Pick<Config, "DATACITE_ENABLED" | "DATACITE_PREFIX" | "DATACITE_USERNAME" | "DATACITE_PASSWORD" | "DATACITE_TEST_MODE" | "DATACITE_URL">;

export interface DataciteJobDeps {
  config: DataciteConfig;
  /** The published record's JSON (InvenioRDM shape), or null when it no longer exists. */
  loadRecord(id: string): Promise<RecordDocument | null>;
  /** Landing page of a record; for a parent id, the page that shows its latest version. */
  recordUrl(id: string): string;
  log(message: string): void;
  /** Vocabulary props (resource types, relation types...) the record JSON does not carry (the vocabularies service's lookup). */
  vocabulary?: VocabularyLookup;
  /** DOIs of a parent's published versions, for the concept DOI's HasVersion links. */
  versionDois?(parentId: string): Promise<string[]>;
  /** DataCite requires a publisher; default "Cairn". */
  publisherFallback?: string;
  fetch?: typeof fetch;
}

export interface DataciteRegisterPayload {
  recordId: string;
  /** The concept DOI, when the caller minted it in the same publish. */
  parentDoi?: string;
}

export const DATACITE_REGISTER_JOB = "datacite-register";

/** DOIs are registered only with DataCite switched on and a full account: prefix, username, password. */
export function shouldRegister(config: Pick<Config, "DATACITE_ENABLED" | "DATACITE_PREFIX" | "DATACITE_USERNAME" | "DATACITE_PASSWORD">): boolean {
  return Boolean(config.DATACITE_ENABLED && config.DATACITE_PREFIX && config.DATACITE_USERNAME && config.DATACITE_PASSWORD);
}

export function defineDataciteJobs(registry: JobRegistry, deps: DataciteJobDeps) {
  const { config } = deps;
  if (config.DATACITE_ENABLED && !shouldRegister(config)) {
    deps.log("[datacite] DATACITE_ENABLED is set but DATACITE_PREFIX, DATACITE_USERNAME or DATACITE_PASSWORD is empty: DOIs will not be registered");
  }

  registry.define<DataciteRegisterPayload>({
    name: DATACITE_REGISTER_JOB,
    description: "Registers or updates a record's DOI and its concept DOI at DataCite.",
    // DataCite outages last minutes to hours: 1, 2, 4... minutes, capped at an hour, about 3 h in all.
    maxAttempts: 8,
    backoffMs: 60_000,
    run: (payload, ctx) => registerRecord(deps, payload, ctx),
  });
}

async function registerRecord(deps: DataciteJobDeps, payload: DataciteRegisterPayload, ctx: JobContext) {
  const { config } = deps;
  // Checked when the job runs, not when it was queued: the account may have been removed since.
  if (!shouldRegister(config)) return { skipped: "DataCite registration is off or not configured" };
  const loaded = await deps.loadRecord(payload.recordId);
  if (!loaded) return { skipped: `record ${payload.recordId} not found` };
  const doi: string | undefined = loaded.pids?.doi?.provider === "datacite" ? loaded.pids.doi.identifier : undefined;
  if (!doi) return { skipped: "the record has no DataCite DOI" };

  const parentPid = loaded.parent?.pids?.doi;
  const parentDoi: string | undefined = payload.parentDoi ?? (parentPid?.provider === "datacite" ? parentPid.identifier : undefined);
  // The version's metadata links to its concept DOI (IsVersionOf), also when it was minted just now.
  const record = parentDoi ? withParentDoi(loaded, parentDoi) : loaded;

  const client = createDataciteClient({
    url: dataciteApiUrl(config),
    username: config.DATACITE_USERNAME,
    password: config.DATACITE_PASSWORD,
    fetch: deps.fetch,
  });
  const hidden = isHidden(record);
  const version = await push(deps, client, ctx, record, hidden, { doi, url: deps.recordUrl(payload.recordId) });
  const result: JsonObject = { doi, state: version };

  // The concept DOI carries the latest version's metadata (as InvenioRDM does); an older
  // version's update must not overwrite it.
  const parentId: string | undefined = record.parent?.id;
  if (parentDoi && parentId && record.versions?.is_latest !== false) {
    const versionDois = (await deps.versionDois?.(parentId)) ?? [doi];
    result.parent = {
      doi: parentDoi,
      state: await push(deps, client, ctx, record, hidden, { doi: parentDoi, url: deps.recordUrl(parentId), versionDois }),
    };
  }
  return result;
}

/**
 * Public records: full metadata with event `publish` (creates the DOI, or updates it and makes it
 * findable again). Restricted or deleted records follow InvenioRDM's DataCite provider: a DOI
 * DataCite does not know is not registered at all (its metadata must not leave the repository),
 * and a findable one is hidden (`hide`: still resolves, no longer listed) without sending metadata.
 */
async function push(
  deps: DataciteJobDeps,
  client: DataciteClient,
  ctx: JobContext,
  record: RecordDocument,
  hidden: boolean,
  target: { doi: string; url: string; versionDois?: string[] },
): Promise<string> {
  const opts = { signal: ctx.signal };
  if (hidden) {
    const existing = await client.getDoi(target.doi, opts);
    const state: string | undefined = existing?.attributes.state;
    if (state !== "findable") {
      ctx.log(`DOI ${target.doi} left ${state ?? "unregistered"}: the record is not public`);
      return state ?? "unregistered";
    }
    const hiddenDoi = await client.upsertDoi(target.doi, {}, "hide", opts);
    ctx.log(`DOI ${target.doi} hidden: the record is not public`);
    return hiddenDoi.attributes.state ?? "registered";
  }
  const attributes = dataciteAttributes(record, {
    ...target,
    publisherFallback: deps.publisherFallback ?? "Cairn",
    vocabulary: await readVocabularyEntries([record], deps.vocabulary),
  });
  const saved = await client.upsertDoi(target.doi, attributes, "publish", opts);
  ctx.log(`DOI ${target.doi} is ${saved.attributes.state ?? "findable"} at ${target.url}`);
  return saved.attributes.state ?? "findable";
}

function isHidden(record: RecordDocument): boolean {
  return record.access?.record === "restricted" || record.deletion_status?.is_deleted === true || Boolean(record.tombstone);
}

function withParentDoi(record: RecordDocument, parentDoi: string): RecordDocument {
  const parent: JsonObject = record.parent ?? {};
  if (parent.pids?.doi?.identifier === parentDoi) return record;
  const doi = { identifier: parentDoi, provider: "datacite", client: "datacite" };
  return { ...record, parent: { ...parent, pids: { ...parent.pids, doi } } };
}
