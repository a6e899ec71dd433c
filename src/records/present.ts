// Drafts and records -> the API's JSON: stored document plus ids, timestamps, parent, versions,
// computed access.status, and the absolute links clients follow.
import type { FieldError } from "../core/errors";
import type { JsonObject } from "../core/json";
import type { Links } from "../core/links";
import type { RecordDocument } from "../core/record-document";
import { formatRecordTime } from "../core/time";
import { accessStatus, type Access } from "./access";
import type { DraftRow, ParentRow, RecordRow } from "./store";

/**
 * What a record's JSON shows besides its row, read beforehand (records/context.ts) so that
 * presenting is synchronous.
 */
export interface PresentContext {
  links: Links;
  parent: ParentRow;
  /** Highest version index among the parent's records and drafts. */
  maxVersionIndex: number;
  doiUrl(doi: string): string;
  /** The `files` field: settings (`filesSettings`) with the entries the caller may see, count and total size. */
  files: Record<string, unknown>;
  /** `stats` of a published record (views, downloads of this version and all versions); null when statistics are not wired. */
  stats?: Record<string, unknown> | null;
  /** `parent.communities`: `{ids, default, entries}`, or `{}` when the record is in none. */
  communities?: Record<string, unknown>;
  /** `parent.review` of a draft: its newest review request (`{id, type, receiver, status}`), or null when it has none; undefined for records. */
  review?: Record<string, unknown> | null;
  /** A draft held until an administrator approves its owner's account (moderation): its `status` says so. */
  held?: boolean;
  /** `parent.access` beside `owned_by`: `{settings, grants, links}` (grants and links only for callers who manage the record). */
  access?: Record<string, unknown>;
}

/** The files settings of a document as the `files` field shows them (defaults: enabled, no preview, no order). */
export function filesSettings(document: RecordDocument) {
  const files: JsonObject = document.files ?? {};
  return { enabled: files.enabled !== false, default_preview: (files.default_preview as string | null) ?? null, order: (files.order as string[]) ?? [] };
}

function parentOf(parent: ParentRow, ctx: PresentContext) {
  return {
    id: parent.id,
    access: { owned_by: parent.ownerId === null ? null : { user: String(parent.ownerId) }, ...(ctx.access ?? { settings: {}, grants: [], links: [] }) },
    communities: ctx.communities ?? {},
    pids: parent.pids,
    ...(ctx.review !== undefined ? { review: ctx.review } : {}),
  };
}

function common(row: DraftRow | RecordRow, ctx: PresentContext) {
  const doc = row.document;
  const access = doc.access as Access;
  const files: JsonObject = doc.files ?? { enabled: true, default_preview: null, order: [] };
  return {
    id: row.id,
    created: formatRecordTime(row.created),
    updated: formatRecordTime(row.updated),
    // InvenioRDM's documented responses show the creation time here for drafts and records alike.
    expires_at: formatRecordTime(row.created),
    revision_id: row.revisionId,
    access: { ...access, status: accessStatus(access, files.enabled !== false) },
    files: ctx.files,
    metadata: doc.metadata ?? {},
    custom_fields: doc.custom_fields ?? {},
    pids: doc.pids ?? {},
    parent: parentOf(ctx.parent, ctx),
  };
}

function doiLinks(doc: RecordDocument, ctx: PresentContext): { doi?: string; parent_doi?: string } {
  const doi = doc.pids?.doi?.identifier;
  const parentDoi = (ctx.parent.pids as JsonObject)?.doi?.identifier;
  return { ...(doi ? { doi: ctx.doiUrl(doi) } : {}), ...(parentDoi ? { parent_doi: ctx.doiUrl(parentDoi) } : {}) };
}

/** A draft's `status` while it waits for an administrator to approve its owner's account. */
export const AWAITING_MODERATION = "awaiting_moderation";

export function presentDraft(row: DraftRow, ctx: PresentContext, published: boolean, errors: FieldError[] = []) {
  const { links } = ctx;
  const api = (p: string) => links.api(`/records/${row.id}${p}`);
  // `awaiting_moderation` is Cairn's: InvenioRDM publishes first and moderates after.
  const status = ctx.held ? AWAITING_MODERATION : published ? "published" : row.versionIndex > 1 ? "new_version_draft" : "draft";
  return {
    ...common(row, ctx),
    is_published: false,
    is_draft: true,
    status,
    versions: { index: row.versionIndex, is_latest: false, is_latest_draft: row.versionIndex === ctx.maxVersionIndex },
    links: {
      self: api("/draft"),
      self_html: links.html(`/uploads/${row.id}`),
      preview_html: links.html(`/records/${row.id}`, { preview: 1 }),
      files: api("/draft/files"),
      archive: api("/draft/files-archive"),
      latest: api("/versions/latest"),
      latest_html: links.html(`/records/${row.id}/latest`),
      versions: api("/versions"),
      publish: api("/draft/actions/publish"),
      access_links: api("/access/links"),
      access_grants: api("/access/grants"),
      access_users: api("/access/users"),
      access_request: api("/access/request"),
      access: api("/access"),
      reserve_doi: api("/draft/pids/doi"),
      review: api("/draft/review"),
      record: api(""),
      record_html: links.html(`/records/${row.id}`),
      parent: links.api(`/records/${ctx.parent.id}`),
      parent_html: links.html(`/records/${ctx.parent.id}`),
      ...doiLinks(row.document, ctx),
    },
    ...(errors.length ? { errors } : {}),
  };
}

/** Only published records carry `stats` (InvenioRDM). */
function statsOf(ctx: PresentContext) {
  return ctx.stats ? { stats: ctx.stats } : {};
}

export function presentRecord(row: RecordRow, ctx: PresentContext) {
  const { links } = ctx;
  const api = (p: string) => links.api(`/records/${row.id}${p}`);
  return {
    ...common(row, ctx),
    is_published: true,
    is_draft: false,
    status: "published",
    versions: { index: row.versionIndex, is_latest: row.isLatest, is_latest_draft: row.versionIndex === ctx.maxVersionIndex },
    // InvenioRDM's deletion status; the tombstone only on a deleted record (which only administrators read).
    deletion_status: { is_deleted: row.deletionStatus !== "P", status: row.deletionStatus },
    ...(row.deletionStatus !== "P" && row.tombstone ? { tombstone: row.tombstone } : {}),
    ...statsOf(ctx),
    links: {
      self: api(""),
      self_html: links.html(`/records/${row.id}`),
      files: api("/files"),
      archive: api("/files-archive"),
      latest: api("/versions/latest"),
      latest_html: links.html(`/records/${row.id}/latest`),
      versions: api("/versions"),
      draft: api("/draft"),
      access_links: api("/access/links"),
      access_grants: api("/access/grants"),
      access_users: api("/access/users"),
      access_request: api("/access/request"),
      access: api("/access"),
      self_iiif_manifest: links.api(`/iiif/record:${row.id}/manifest`),
      self_iiif_sequence: links.api(`/iiif/record:${row.id}/sequence/default`),
      communities: api("/communities"),
      "communities-suggestions": api("/communities-suggestions"),
      requests: api("/requests"),
      parent: links.api(`/records/${ctx.parent.id}`),
      parent_html: links.html(`/records/${ctx.parent.id}`),
      ...doiLinks(row.document, ctx),
    },
  };
}

/** Search listings add InvenioRDM's index fields beside the record shape. */
export function presentListedRecord(row: RecordRow, ctx: PresentContext) {
  const record = presentRecord(row, ctx);
  return {
    ...record,
    published: true,
    conceptid: ctx.parent.id,
    access: { ...record.access, owned_by: ctx.parent.ownerId === null ? [] : [{ user: ctx.parent.ownerId }] },
  };
}
