// Access-request tests: records with restricted files, their access settings, asking, and the
// links the outbox mail carries (a guest's verification link, an accepted guest's secret link).
import { expect } from "bun:test";
import { BASE_URL, expectStatus } from "./app";
import type { Party, RequestsTestApp } from "./requests";
import { createDraft, publishableDraft, publishDraft } from "./records";
import { uploadFile } from "./files";

export const FILE_CONTENT = "station,temp\nA,12.5\n";

export const ALL_ALLOWED = { allow_user_requests: true, allow_guest_requests: true, secret_link_expiration: 30 };

export type Access = { record: "public" | "restricted"; files: "public" | "restricted" };

/** A record of alice's with `data.csv`, published with this access (default: public record, restricted files), with these settings (none: the defaults). */
export async function recordWithFile(t: RequestsTestApp, options: { access?: Access; settings?: Record<string, unknown>; title?: string } = {}) {
  const access = options.access ?? { record: "public", files: "restricted" };
  const base = publishableDraft();
  const draft = await createDraft(t, publishableDraft({ access, files: { enabled: true }, metadata: { ...base.metadata, title: options.title ?? "Buoy temperatures" } }));
  await uploadFile(t, draft.id, "data.csv", FILE_CONTENT);
  const record = await publishDraft(t, draft.id);
  if (options.settings) await setAccessSettings(t, record.id, options.settings);
  return record as { id: string; parent: { id: string }; metadata: { title: string } };
}

/** The owner sets the record's access settings (`PUT /api/records/{id}/access`). */
export async function setAccessSettings(t: RequestsTestApp, id: string, settings: Record<string, unknown>, as: Party = "alice") {
  const res = await t.callAs(as, "PUT", `/api/records/${id}/access`, { body: { settings } });
  expectStatus(res, 200);
  return res;
}

export const askBody = (email: string, extra: Record<string, unknown> = {}) => ({
  permission: "view",
  email,
  full_name: "Gail Guest",
  message: "<p>I study buoys.</p>",
  consent_to_share_personal_data: "true",
  ...extra,
});

/** `POST /api/records/{id}/access/request` as `who`. */
export const ask = (t: RequestsTestApp, who: Party, id: string, body: unknown) => t.callAs(who, "POST", `/api/records/${id}/access/request`, { body });

/** The outbox mail to `address`, oldest first. */
export const mailTo = async (t: RequestsTestApp, address: string) => (await t.outbox()).filter((m) => m.recipient === address);

/** The one URL of the mail's body starting with `prefix`. */
export function urlIn(body: string, prefix: string): string {
  const found = body.match(/https?:\/\/\S+/g)?.filter((u) => u.startsWith(prefix)) ?? [];
  expect(found.length).toBeGreaterThan(0);
  return found[0]!;
}

/** The path (and query) of an absolute URL of the test app, to call it. */
export const pathOf = (url: string) => {
  expect(url.startsWith(BASE_URL)).toBe(true);
  return url.slice(BASE_URL.length);
};

/** A guest asks, and confirms with the link mailed to them; returns the request ({id, status}). */
export async function guestAsks(t: RequestsTestApp, id: string, email: string, extra: Record<string, unknown> = {}) {
  const before = (await mailTo(t, email)).length;
  const res = await ask(t, "anonymous", id, askBody(email, extra));
  expectStatus(res, 200);
  const mails = await mailTo(t, email);
  expect(mails.length).toBe(before + 1);
  const link = urlIn(mails.at(-1)!.body, `${BASE_URL}/api/access/requests/verify?token=`);
  const confirmed = await t.callAs("anonymous", "GET", pathOf(link));
  expectStatus(confirmed, 200);
  return confirmed.json.request as { id: string; status: string };
}

/** Alice publishes a new version of the record with its own restricted file `v2.csv` (content "v2 data"). */
export async function newVersion(t: RequestsTestApp, recordId: string) {
  const draft = await t.callAs("alice", "POST", `/api/records/${recordId}/versions`);
  expectStatus(draft, 201);
  const metadata = { ...draft.json.metadata, publication_date: "2026-12-01", version: "v2" };
  expectStatus(await t.callAs("alice", "PUT", `/api/records/${draft.json.id}/draft`, { body: { ...draft.json, metadata, files: { enabled: true } } }), 200);
  await uploadFile(t, draft.json.id, "v2.csv", "v2 data");
  const published = await t.callAs("alice", "POST", `/api/records/${draft.json.id}/draft/actions/publish`);
  expectStatus(published, 202);
  return published.json as { id: string; access: { files: string } };
}
