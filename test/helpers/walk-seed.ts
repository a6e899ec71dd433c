// The repository the page walk (test/browser/walk.test.ts) goes through, seeded through the REST
// API with each person's token as people would fill it: one of every kind of page's subject.
import { systemActor } from "../../src/core/actor";
import { mailOutboxTable } from "../../src/db/tables";
import { expectStatus, type CallOptions } from "./app";
import type { BrowserApp } from "./browser";
import { uploadFile } from "./files";
import { MINIMAL_METADATA, publishableDraft } from "./records";

/** The people of the seeded repository who sign in (the app's admin and alice, and those made here). */
export type Person = "admin" | "alice" | "bob" | "carol" | "oscar" | "dave" | "erin";

export interface Seeded {
  publicId: string;
  filesRestrictedId: string;
  restrictedId: string;
  draftId: string;
  reviewDraftId: string;
  reviewRequestId: string;
  acceptedId: string;
  deletedId: string;
  community: { id: string; slug: string };
  secretToken: string;
}

const body = (title: string, access = { record: "public", files: "public" }, files = true) =>
  publishableDraft({ access, files: { enabled: files }, metadata: { ...MINIMAL_METADATA, publisher: "Cairn test repository", title } });

/**
 * Seeds the repository the walk goes through, all through the REST API with each person's token:
 * alice (the depositor) owns a public record with files, one with restricted files (asked for by
 * bob and by a guest), a restricted record with a secret link, a draft, a draft in review at the
 * community and a record the community accepted; oscar owns the community, carol curates it, dave
 * reads it and erin has an invitation she has not answered; the administrator tombstoned a record.
 */
export async function seedRepository(app: BrowserApp): Promise<Seeded> {
  const tokens: Record<string, string> = { admin: app.users.admin.token, alice: app.users.alice.token, bob: app.users.bob.token };
  const ids: Record<string, number> = { admin: app.users.admin.user.id, alice: app.users.alice.user.id, bob: app.users.bob.user.id };
  const names: Record<string, string> = { carol: "Carol Curator", oscar: "Oscar Owner", dave: "Dave Reader", erin: "Erin Invitee" };
  for (const [name, fullName] of Object.entries(names)) {
    const user = await app.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password`, fullName });
    tokens[name] = (await app.services.tokens.createToken(systemActor, { userId: user.id, name: `${name}-token` })).secret;
    ids[name] = user.id;
  }
  const call = (as: Person | "anonymous", method: string, path: string, options: Omit<CallOptions, "as" | "token"> = {}) =>
    app.call(method, path, { ...options, ...(as === "anonymous" ? {} : { token: tokens[as] }) });
  const ok = async (status: number, as: Person | "anonymous", method: string, path: string, options: Omit<CallOptions, "as" | "token"> = {}) => {
    const res = await call(as, method, path, options);
    expectStatus(res, status);
    return res.json;
  };
  const draft = async (title: string, access?: { record: string; files: string }, files: [string, string][] = []) => {
    const made = await ok(201, "alice", "POST", "/api/records", { body: body(title, access, files.length > 0) });
    for (const [key, content] of files) await uploadFile(app, made.id, key, content);
    return made.id as string;
  };
  const publish = async (id: string) => (await ok(202, "alice", "POST", `/api/records/${id}/draft/actions/publish`)).id as string;
  const tick = () => app.clock.advance(60_000);

  const publicId = await publish(
    await draft("Ocean buoy temperatures, North Sea 2025", undefined, [
      ["temperatures.csv", "station,time,temp\nB1,2025-01-01T00:00Z,7.5\n"],
      ["README.txt", "Hourly water temperatures.\n"],
    ]),
  );
  tick();
  const filesRestrictedId = await publish(await draft("Seabed sonar scans", { record: "public", files: "restricted" }, [["scans.csv", "line,depth\n1,40\n"]]));
  await ok(200, "alice", "PUT", `/api/records/${filesRestrictedId}/access`, {
    body: { settings: { allow_user_requests: true, allow_guest_requests: true, secret_link_expiration: 30 } },
  });
  tick();
  const restrictedId = await publish(await draft("Confidential interview transcripts", { record: "restricted", files: "restricted" }, [["interviews.txt", "Transcript.\n"]]));
  const link = await ok(201, "alice", "POST", `/api/records/${restrictedId}/access/links`, { body: { permission: "view", description: "For the reviewers" } });
  tick();

  // bob and a guest ask for the restricted files; the guest confirms with the mailed link.
  await ok(200, "bob", "POST", `/api/records/${filesRestrictedId}/access/request`, {
    body: { permission: "view", email: "bob@example.org", full_name: "Bob Builder", message: "<p>For my thesis.</p>", consent_to_share_personal_data: "true" },
  });
  await ok(200, "anonymous", "POST", `/api/records/${filesRestrictedId}/access/request`, {
    body: { permission: "view", email: "gail@example.org", full_name: "Gail Guest", message: "<p>I study sonar.</p>", consent_to_share_personal_data: "true" },
  });
  const mails = await app.services.deps.db.select().from(mailOutboxTable).all();
  const verify = mails.filter((m) => m.recipient === "gail@example.org").flatMap((m) => m.body.match(/\/api\/access\/requests\/verify\?token=[^\s"<]+/g) ?? []);
  if (!verify[0]) throw new Error("the guest's verification mail was not found in the outbox");
  await ok(200, "anonymous", "GET", verify[0]);
  tick();

  // The community: oscar owns it; carol (curator), dave (reader) accept their invitations, erin's stays open.
  const community = await ok(201, "oscar", "POST", "/api/communities", {
    body: {
      slug: "ocean",
      access: { visibility: "public", member_policy: "open", record_policy: "open" },
      metadata: { title: "Ocean observation", description: "<p>Sea measurements.</p>" },
    },
  });
  for (const [who, role] of [
    ["carol", "curator"],
    ["dave", "reader"],
    ["erin", "reader"],
  ] as const) {
    await ok(204, "oscar", "POST", `/api/communities/${community.id}/invitations`, {
      body: { members: [{ type: "user", id: String(ids[who]) }], role, message: "<p>Join us.</p>" },
    });
    if (who === "erin") continue;
    const invitation = await ok(200, who, "GET", "/api/user/requests?is_open=true");
    const id = invitation.hits.hits.find((r: { type: string }) => r.type === "community-invitation")?.id;
    await ok(200, who, "POST", `/api/requests/${id}/actions/accept`);
  }
  tick();

  // Two drafts submitted for review: one waits, the other carol accepts.
  const submit = async (id: string) => {
    await ok(200, "alice", "PUT", `/api/records/${id}/draft/review`, { body: { receiver: { community: community.id }, type: "community-submission" } });
    return (await ok(202, "alice", "POST", `/api/records/${id}/draft/actions/submit-review`, { body: { payload: { content: "<p>Please include it.</p>", format: "html" } } }))
      .id as string;
  };
  const reviewDraftId = await draft("Tide gauge readings, Harwich", undefined, [["tides.csv", "t,h\n0,1.2\n"]]);
  const reviewRequestId = await submit(reviewDraftId);
  tick();
  const acceptedDraft = await draft("Plankton counts, Dogger Bank", undefined, [["plankton.csv", "n\n12\n"]]);
  await ok(200, "carol", "POST", `/api/requests/${await submit(acceptedDraft)}/actions/accept`, { body: { payload: { content: "<p>Welcome.</p>", format: "html" } } });
  tick();

  const draftId = await draft("Unfinished salinity survey");
  const deletedId = await publish(await draft("Retracted current meter data"));
  await ok(204, "admin", "DELETE", `/api/records/${deletedId}/delete`, { body: { removal_reason: { id: "spam" }, note: "Duplicate upload." } });
  tick();
  return { publicId, filesRestrictedId, restrictedId, draftId, reviewDraftId, reviewRequestId, acceptedId: acceptedDraft, deletedId, community, secretToken: link.token };
}
