// HTTP routes of communities curating records: the draft's review (choose the community, read,
// remove, submit) and a record's communities (list, add, remove, default, suggestions, and a
// community's curators removing records).
import { Elysia } from "elysia";
import { actionPayloadBody } from "../core/body";
import type { ActorContext } from "../core/http";
import { queryParams } from "../core/links";
import type { CurationService } from "./service";

const tags = ["Reviews and record communities"];

export const curationRoutes = (http: ActorContext, curation: CurationService) =>
  new Elysia()
    .use(http)
    .get("/api/records/:id/draft/review", async ({ actor, params }) => await curation.readReview(actor, params.id), { detail: { summary: "The draft's review request", tags } })
    .put("/api/records/:id/draft/review", async ({ actor, params, body }) => await curation.updateReview(actor, params.id, body), {
      detail: { summary: "Choose the community to submit the draft to (a review in the state created)", tags },
    })
    .delete(
      "/api/records/:id/draft/review",
      async ({ actor, params, set }) => {
        await curation.deleteReview(actor, params.id);
        set.status = 204;
        return null;
      },
      { detail: { summary: "Remove a review that is not yet submitted", tags } },
    )
    .post(
      "/api/records/:id/draft/actions/submit-review",
      async ({ actor, params, body, set }) => {
        const review = await curation.submitReview(actor, params.id, body);
        set.status = 202;
        return review;
      },
      { body: actionPayloadBody, detail: { summary: "Submit the draft to the community for review, optionally with a comment", tags } },
    )
    .get("/api/records/:id/communities", async ({ actor, params, request }) => await curation.searchRecordCommunities(actor, params.id, queryParams(request.url)), {
      detail: { summary: "The communities the record is in", tags },
    })
    .post("/api/records/:id/communities", async ({ actor, params, body }) => await curation.addCommunities(actor, params.id, body), {
      detail: { summary: "Ask communities to include the record (1 to 10); processed and errors per community", tags },
    })
    .delete("/api/records/:id/communities", async ({ actor, params, body }) => await curation.removeCommunities(actor, params.id, body), {
      detail: { summary: "Remove the record from communities (its owner, or the communities' curators)", tags },
    })
    .put("/api/records/:id/communities", async ({ actor, params, body }) => await curation.setDefaultCommunity(actor, params.id, body), {
      detail: { summary: "Set the record's default community", tags },
    })
    .get("/api/records/:id/communities-suggestions", async ({ actor, params, request }) => await curation.searchSuggestions(actor, params.id, queryParams(request.url)), {
      detail: { summary: "Communities the record could be added to (membership=true: the caller's)", tags },
    })
    .delete("/api/communities/:id/records", async ({ actor, params, body }) => await curation.removeRecords(actor, params.id, body), {
      detail: { summary: "Remove records from the community (its curators, managers and owners)", tags },
    });
