// The community-inclusion request type (InvenioRDM's): the manager of a published record asks a
// community to include it; the community's curators, managers and owners accept (the record's
// parent, so every version, joins the community) or decline; the asker cancels. It does not expire.
import { HttpError } from "../../core/errors";
import { CREATOR_ASKS_RECEIVER_DECIDES, type RequestType } from "../types";

export const communityInclusion: RequestType = {
  id: "community-inclusion",
  entities: { creator: ["user"], receiver: ["community"], topic: ["record"] },
  can: CREATOR_ASKS_RECEIVER_DECIDES,
  on: {
    accept({ request, now, services }) {
      if (!services.records) throw new HttpError(503, "Records cannot be included: the records module is not available.");
      if (request.topic?.kind !== "record" || request.receiver.kind !== "community") throw new HttpError(400, "This inclusion request names no record or no community.");
      services.records.include(request.topic.id, request.receiver.id, now);
    },
  },
  expiresInDays: null,
  defaults: () => ({ title: "Inclusion of a record" }),
};
