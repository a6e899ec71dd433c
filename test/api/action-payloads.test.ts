// Action endpoints take an optional payload, read as InvenioRDM reads it (`if data:`): no body,
// `null`, `[]` and `{}` all mean "no payload" (zen4R sends `[]`), an object is the payload, and
// anything else (a list with items, a string, a number, true) is a 400 that changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectStatus } from "../helpers/app";
import { createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { createDraft, publishableDraft, publishRecord } from "../helpers/records";

type Json = any;

let t: CommunitiesTestApp;
/** A public community of `owner` with a curator; alice is not a member, so her submissions wait for review. */
let community: { id: string };

/** The bodies that mean "no payload": none at all, and JSON `[]`, `{}`, `null`. */
const EMPTY: { name: string; body?: unknown }[] = [{ name: "no body" }, { name: "[]", body: [] }, { name: "{}", body: {} }, { name: "null", body: null }];
/** Bodies that are neither an object nor empty. */
const BAD: { name: string; body: unknown }[] = [
  { name: "[1]", body: [1] },
  { name: '"x"', body: "x" },
  { name: "5", body: 5 },
  { name: "true", body: true },
  { name: "[{}]", body: [{}] },
];

/** POST with the body as given (absent when `body` is not a key of the options). */
const post = (as: Role, path: string, payload: { body?: unknown }) => t.call("POST", path, "body" in payload ? { as, body: payload.body } : { as });

const newDraft = async (): Promise<string> => (await createDraft(t)).id;

/** A draft whose review goes to `community` (not yet submitted). */
async function draftForReview(): Promise<string> {
  const id = await newDraft();
  expectStatus(await t.call("PUT", `/api/records/${id}/draft/review`, { as: "alice", body: { receiver: { community: community.id }, type: "community-submission" } }), 200);
  return id;
}

const submitReview = (id: string, payload: { body?: unknown }) => post("alice", `/api/records/${id}/draft/actions/submit-review`, payload);
const requestAction = (as: Role, requestId: string, action: string, payload: { body?: unknown }) => post(as, `/api/requests/${requestId}/actions/${action}`, payload);

beforeAll(async () => {
  t = await createCommunitiesTestApp();
  community = await t.makeCommunity("reviewers");
});
afterAll(() => t.close());

for (const empty of EMPTY) {
  describe(`an empty payload (${empty.name}) on every action`, () => {
    test("the zen4R flow: submit-review, decline, submit again, cancel, submit again, accept", async () => {
      const id = await draftForReview();
      const first = await submitReview(id, empty);
      expectStatus(first, 202);
      expect(first.json.status).toBe("submitted");
      const declined = await requestAction("curator", first.json.id, "decline", empty);
      expectStatus(declined, 200);
      expect(declined.json.status).toBe("declined");

      const second = await submitReview(id, empty);
      expectStatus(second, 202);
      expect(second.json.status).toBe("submitted");
      const cancelled = await requestAction("alice", second.json.id, "cancel", empty);
      expectStatus(cancelled, 200);
      expect(cancelled.json.status).toBe("cancelled");

      const third = await submitReview(id, empty);
      expectStatus(third, 202);
      const accepted = await requestAction("curator", third.json.id, "accept", empty);
      expectStatus(accepted, 200);
      expect(accepted.json.status).toBe("accepted");
      const record = await t.call("GET", `/api/records/${id}`, { as: "alice" });
      expectStatus(record, 200);
      expect(record.json.parent.communities.ids).toEqual([community.id]);
      // No comment was written with any of these actions.
      const timeline = await t.call("GET", `/api/requests/${third.json.id}/timeline`, { as: "alice" });
      expectStatus(timeline, 200);
      expect(timeline.json.hits.hits.filter((e: Json) => e.type === "C")).toEqual([]);
    });

    test("publish, edit, publish the edit, new version", async () => {
      const id = await newDraft();
      const publish = await post("alice", `/api/records/${id}/draft/actions/publish`, empty);
      expectStatus(publish, 202);
      expect(publish.json.is_published).toBe(true);
      const edit = await post("alice", `/api/records/${id}/draft`, empty);
      expectStatus(edit, 201);
      expect(edit.json.is_draft).toBe(true);
      expectStatus(await post("alice", `/api/records/${id}/draft/actions/publish`, empty), 202);
      const version = await post("alice", `/api/records/${id}/versions`, empty);
      expectStatus(version, 201);
      expect(version.json.versions.index).toBe(2);
    });

    test("importing the previous version's files into a new version", async () => {
      const record = await publishRecord(t, publishableDraft({ files: { enabled: true } }), { files: [["data.csv", "a,b\n1,2\n"]] });
      const version = await post("alice", `/api/records/${record.id}/versions`, empty);
      expectStatus(version, 201);
      const imported = await post("alice", `/api/records/${version.json.id}/draft/actions/files-import`, empty);
      expectStatus(imported, 201);
      expect(imported.json.entries.map((e: Json) => e.key)).toEqual(["data.csv"]);
    });

    test("a user's access request accepted by the record's owner", async () => {
      const record = await publishRecord(t, publishableDraft({ access: { record: "public", files: "restricted" }, files: { enabled: true } }), {
        files: [["data.csv", "a,b\n1,2\n"]],
      });
      expectStatus(await t.call("PUT", `/api/records/${record.id}/access`, { as: "alice", body: { settings: { allow_user_requests: true } } }), 200);
      const asked = await t.call("POST", `/api/records/${record.id}/access/request`, {
        as: "bob",
        body: { permission: "view", email: "bob@example.org", full_name: "Bob", message: "<p>Please</p>", consent_to_share_personal_data: "true" },
      });
      expectStatus(asked, 200);
      const accepted = await requestAction("alice", asked.json.id, "accept", empty);
      expectStatus(accepted, 200);
      expect(accepted.json.status).toBe("accepted");
    });
  });
}

describe("a payload that is neither an object nor empty: 400, nothing changes", () => {
  for (const bad of BAD) {
    test(`${bad.name} on submit-review, decline, cancel, accept, publish, edit, new version`, async () => {
      const message = expect.stringMatching(/^The request body must be a JSON object, not /);
      const isBad = (res: { status: number; json: Json }) => {
        expectStatus(res, 400);
        expect(res.json.errors).toEqual([{ field: "", messages: [message] }]);
      };
      const id = await draftForReview();
      isBad(await submitReview(id, bad));
      expect((await t.call("GET", `/api/records/${id}/draft/review`, { as: "alice" })).json.status).toBe("created");
      const review = await submitReview(id, {});
      expectStatus(review, 202);
      isBad(await requestAction("curator", review.json.id, "decline", bad));
      isBad(await requestAction("curator", review.json.id, "accept", bad));
      isBad(await requestAction("alice", review.json.id, "cancel", bad));
      expect((await t.call("GET", `/api/requests/${review.json.id}`, { as: "alice" })).json.status).toBe("submitted");

      const draft = await newDraft();
      isBad(await post("alice", `/api/records/${draft}/draft/actions/publish`, bad));
      expectStatus(await t.call("GET", `/api/records/${draft}`, { as: "alice" }), 404);
      const record = await publishRecord(t);
      isBad(await post("alice", `/api/records/${record.id}/draft`, bad));
      expectStatus(await t.call("GET", `/api/records/${record.id}/draft`, { as: "alice" }), 404);
      isBad(await post("alice", `/api/records/${record.id}/versions`, bad));
    });
  }
});

test("a comment as the payload still counts: submit-review and decline write it to the timeline", async () => {
  const id = await draftForReview();
  const review = await submitReview(id, { body: { payload: { content: "<p>Please review</p>", format: "html" } } });
  expectStatus(review, 202);
  expectStatus(await requestAction("curator", review.json.id, "decline", { body: { payload: { content: "<p>Not yet</p>" } } }), 200);
  const timeline = await t.call("GET", `/api/requests/${review.json.id}/timeline`, { as: "alice" });
  expect(timeline.json.hits.hits.filter((e: Json) => e.type === "C").map((e: Json) => e.payload.content)).toEqual(["<p>Please review</p>", "<p>Not yet</p>"]);
});
