// HTTP routes of access requests: asking for access to a record's files, and the link a guest
// confirms their e-mail address with.
import { Elysia, t } from "elysia";
import type { ActorContext } from "../core/http";
import { prefersHtml } from "../core/negotiation";
import type { AccessRequestsService } from "./service";

const tags = ["Access requests"];

export const accessRequestsRoutes = (http: ActorContext, accessRequests: AccessRequestsService) =>
  new Elysia()
    .use(http)
    .post("/api/records/:id/access/request", ({ actor, params, body }) => accessRequests.requestAccess(actor, params.id, body), {
      detail: {
        summary: "Ask for access to the record's files: a user with their account's address gets a request at once, others a verification e-mail",
        tags,
      },
    })
    .get(
      "/api/access/requests/verify",
      ({ query, request }) => {
        // The mailed link opened in a browser: the page with its confirm button (pages/record/verify.tsx); API clients keep the JSON.
        if (prefersHtml(request.headers.get("accept"))) {
          const token = typeof query.token === "string" ? query.token : "";
          return new Response(null, { status: 303, headers: { Location: `/access/requests/verify${token ? `?token=${encodeURIComponent(token)}` : ""}` } });
        }
        return accessRequests.verifyGuest(typeof query.token === "string" ? query.token : undefined);
      },
      {
        query: t.Object({ token: t.Optional(t.String()) }, { additionalProperties: true }),
        detail: { summary: "Confirm a guest's e-mail address (the mailed link, once, within 6 hours): the access request goes to the record's owner", tags },
      },
    );
