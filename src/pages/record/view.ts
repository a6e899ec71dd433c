// What a landing page shows, gathered from the services as the caller may see it: the record (or a
// draft shown with `?preview=1`), its versions, citation, JSON-LD, Signposting links, the start of
// its text files, and the access-request form when the owner takes requests from the caller.
import type { Actor } from "../../core/actor";
import { stripHtml } from "../../core/html";
import type { JsonObject } from "../../core/json";
import type { PagesDeps } from "../context";
import { mailIsOff } from "../guest-forms";
import { offersAccessRequest, type AccessRequestForm } from "./access";
import { chosenStyle } from "./citation";
import { fileRows, textPreviewed, type FileRow, type TextPreviews } from "./files";
import { recordUrls, withToken, type RecordUrls } from "./links";
import { readPreviewStart } from "./preview";

type Json = JsonObject;

export interface VersionItem {
  id: string;
  index: number;
  date: string;
}

export interface LandingView {
  record: Json;
  isDraft: boolean;
  token?: string;
  urls: RecordUrls;
  rows: FileRow[];
  texts: TextPreviews;
  /** Newest first, at most VERSIONS_SHOWN; `total` counts them all. */
  versions: { items: VersionItem[]; total: number };
  citation: { style: string; text: string } | null;
  jsonLd: string | null;
  /** The Signposting `Link` header (published records). */
  signposting: string | null;
  accessForm: AccessRequestForm | null;
  /** The caller owns the record: the edit and new-version buttons are shown (the services decide when pressed). */
  owner: boolean;
}

const VERSIONS_SHOWN = 10;

const versionOf = (hit: Json): VersionItem => ({ id: String(hit.id), index: Number(hit.versions?.index ?? 1), date: String(hit.metadata?.publication_date ?? "") });

/** The record's versions, newest first; a first version that is the latest is the only one, and no search is needed. */
async function versionsOf(deps: PagesDeps, actor: Actor, record: Json) {
  if (record.versions?.index === 1 && record.versions?.is_latest) return { items: [versionOf(record)], total: 1 };
  const found = (await deps.services.records.listVersions(actor, String(record.id), { size: String(VERSIONS_SHOWN) })) as Json;
  return { items: (found.hits.hits as Json[]).map(versionOf), total: Number(found.hits.total ?? 0) };
}

/** The start of the open preview's text or table file, read through the files service as the caller. */
async function textsOf(deps: PagesDeps, actor: Actor, id: string, isDraft: boolean, rows: FileRow[]): Promise<TextPreviews> {
  const read = await Promise.all(
    textPreviewed(rows).map(async (row) => {
      try {
        return [row.key, await readPreviewStart(deps.services.files, actor, id, isDraft, row)] as const;
      } catch {
        // A file whose bytes cannot be read now (not committed, or missing from the store) is listed without its preview.
        return null;
      }
    }),
  );
  return new Map(read.filter((entry) => entry !== null));
}

async function accessFormOf(deps: PagesDeps, actor: Actor, record: Json, rows: FileRow[], token: string | undefined): Promise<AccessRequestForm | null> {
  const signedIn = actor.kind === "user";
  if (!offersAccessRequest(record, signedIn, rows.length > 0)) return null;
  const user = actor.kind === "user" ? await deps.services.users.findUserById(actor.userId) : null;
  return {
    action: withToken(`/records/${encodeURIComponent(String(record.id))}/access/request`, token),
    csrf: actor.csrf ?? null,
    signedIn,
    email: user?.email ?? "",
    fullName: user?.fullName ?? "",
    message: "",
    consent: false,
    conditions: typeof record.parent?.access?.settings?.accept_conditions_text === "string" ? record.parent.access.settings.accept_conditions_text : null,
    mailOff: mailIsOff(deps),
  };
}

/** The published record `id` as `actor` may see it (401/403/404, or a redirect from a parent id, thrown as the API would). */
export async function loadRecordView(deps: PagesDeps, actor: Actor, id: string, styleParam: string | null): Promise<LandingView> {
  const { services } = deps;
  const record = (await services.records.readRecord(actor, id)) as Json;
  const token = actor.linkToken;
  const rows = fileRows(record);
  const style = chosenStyle(styleParam);
  const citation = await services.exports.chooseFormat("text/x-bibliography", { style })!.render(record);
  const [versions, texts] = await Promise.all([versionsOf(deps, actor, record), textsOf(deps, actor, record.id, false, rows)]);
  const jsonLd = await services.exports.chooseFormat("application/ld+json", {})!.render(record);
  const signposting = await services.exports.signposting(record);
  const accessForm = await accessFormOf(deps, actor, record, rows, token);
  return {
    record,
    isDraft: false,
    token,
    urls: recordUrls(record.id, token, false),
    rows,
    texts,
    versions,
    citation: { style, text: stripHtml(citation) },
    jsonLd,
    signposting,
    accessForm,
    owner: actor.kind === "user" && String(record.parent?.access?.owned_by?.user ?? "") === String(actor.userId),
  };
}

/** A draft as whoever may preview it sees it (`?preview=1`): metadata and files, nothing for harvesters. */
export async function loadDraftView(deps: PagesDeps, actor: Actor, id: string): Promise<LandingView> {
  const record = (await deps.services.records.readDraft(actor, id)) as Json;
  const token = actor.linkToken;
  const rows = fileRows(record);
  return {
    record,
    isDraft: true,
    token,
    urls: recordUrls(record.id, token, true),
    rows,
    texts: await textsOf(deps, actor, record.id, true, rows),
    versions: { items: [], total: 0 },
    citation: null,
    jsonLd: null,
    signposting: null,
    accessForm: null,
    owner: false,
  };
}
