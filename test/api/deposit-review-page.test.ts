// The deposit page as served, by where its draft stands with a review: open ("In review by …", the
// request, Cancel; no Publish, Delete or submission), declined or expired (said, and submitting
// again or publishing offered), and the request page of an accepted review linking to the record.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectStatus } from "../helpers/app";
import { createCommunitiesTestApp, type CommunitiesTestApp } from "../helpers/communities";
import { createDraft, publishableDraft } from "../helpers/records";

let t: CommunitiesTestApp;
let reef: { id: string; slug: string };

beforeAll(async () => {
  t = await createCommunitiesTestApp();
  reef = await t.makeCommunity("reef", { title: "Reef watch" });
});
afterAll(() => t.close());

const page = (path: string) => t.call("GET", path, { as: "alice", headers: { accept: "text/html" } });
/** Whether the element with this id is rendered without `hidden`. */
const shown = (html: string, id: string) => {
  const tag = new RegExp(`<[a-z]+[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no #${id}`);
  return !/\shidden(=|\s|>)/.test(tag);
};

/** A draft of alice submitted to the reef; its review request's id. */
async function submitted(title: string): Promise<{ draftId: string; requestId: string }> {
  const draft = await createDraft(t, publishableDraft({ metadata: { ...publishableDraft().metadata, title } }), { as: "alice" });
  expectStatus(await t.call("PUT", `/api/records/${draft.id}/draft/review`, { as: "alice", body: { receiver: { community: reef.id }, type: "community-submission" } }), 200);
  const res = await t.call("POST", `/api/records/${draft.id}/draft/actions/submit-review`, { as: "alice", body: {} });
  expectStatus(res, 202);
  return { draftId: draft.id, requestId: res.json.id };
}

describe("the deposit page says where a review stands", () => {
  test("open: In review by the community, its request and Cancel; no Publish, Delete or other submission", async () => {
    const { draftId, requestId } = await submitted("Coral counts");
    const html = (await page(`/uploads/${draftId}`)).text;
    expect(html).toContain('In review by <span id="review-community">Reef watch</span>');
    expect(html).toContain(`href="/me/requests/${requestId}"`);
    expect(html).toContain(`data-request="${requestId}"`);
    expect([shown(html, "review-open"), shown(html, "review-choose"), shown(html, "publish"), shown(html, "delete-draft")]).toEqual([true, false, false, false]);
  });

  test("declined: said, with the community chosen again and Publish back", async () => {
    const { draftId, requestId } = await submitted("Seagrass cover");
    expectStatus(await t.call("POST", `/api/requests/${requestId}/actions/decline`, { as: "curator", body: {} }), 200);
    const html = (await page(`/uploads/${draftId}`)).text;
    expect(html).toContain("You submitted this upload to Reef watch, and its curators declined it. Submit it again");
    expect([shown(html, "review-open"), shown(html, "review-choose"), shown(html, "publish")]).toEqual([false, true, true]);
    expect(html).toMatch(new RegExp(`<option value="${reef.id}" selected`));
  });

  test("accepted: the request page links to the published record, not to a draft", async () => {
    const { draftId, requestId } = await submitted("Reef fish");
    expectStatus(await t.call("POST", `/api/requests/${requestId}/actions/accept`, { as: "curator", body: {} }), 200);
    const html = (await page(`/me/requests/${requestId}`)).text;
    expect(html).toContain(`<a href="/records/${draftId}">The published record</a>`);
    expect(html).not.toContain("Edit the draft");
  });
});
