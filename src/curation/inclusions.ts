// Inclusion of published records in communities (`/api/records/{id}/communities`,
// `/api/communities/{id}/records`): one `community-inclusion` request per community, accepted at
// once where the caller may include directly; removal by the record's owner or the community's
// curators. Each community of a call succeeds or fails on its own: `processed` and `errors`.
import { requireUser, systemActor, type Actor } from "../core/actor";
import { badRequest, forbidden, HttpError, notFound, validationError } from "../core/errors";
import type { CommunitySearchQuery } from "../communities/model";
import { readCommentBody } from "../requests/validate";
import type { CurationDeps } from "./context";
import { INCLUSION_TYPE } from "./model";
import { canPublishDirectly, curatesCommunity } from "./policy";
import { readDefaultBody, readInclusionBody, readRemovalBody } from "./validate";

/** One community that could not be processed, as InvenioRDM reports it. */
interface EntryError {
  community?: string;
  record?: string;
  message: string;
}

const messageOf = (err: unknown) => (err instanceof HttpError ? err.message : "The community could not be processed.");

/** 400 carrying the per-entry errors, when none of the entries went through. */
const nothingDone = (message: string, body: Record<string, unknown>) => badRequest(message, undefined, body);

export function createInclusions(deps: CurationDeps) {
  const { curation, requests, communities } = deps;

  /** The community (by id or slug) the caller may read; an HttpError 404 otherwise (a restricted one is not disclosed). */
  async function community(actor: Actor, key: string) {
    const found = await communities.findReadable(actor, key);
    if (!found) throw notFound("Community not found.");
    return found;
  }

  return {
    /** The communities the record is in, as the caller may see them. */
    async searchRecordCommunities(actor: Actor, recordId: string, query: CommunitySearchQuery) {
      const record = await curation.readable(actor, recordId);
      return await deps.searchCommunities(actor, { only: record.communityIds }, query, `/records/${record.id}/communities`);
    },

    /** Communities the record could join: those the caller may read (`membership`: belongs to), less the record's own. */
    async searchSuggestions(actor: Actor, recordId: string, query: CommunitySearchQuery) {
      const record = await curation.managed(actor, recordId);
      const membership = [query.membership].flat().some((v) => v === "true" || v === "1");
      return await deps.searchCommunities(actor, { except: record.communityIds, membersOnly: membership }, query, `/records/${record.id}/communities-suggestions`);
    },

    /** Asks each community to include the record; 200 when at least one was processed, else 400. */
    async addCommunities(actor: Actor, recordId: string, body: unknown) {
      const record = await curation.managed(actor, recordId);
      const entries = readInclusionBody(body);
      const processed: Record<string, unknown>[] = [];
      const errors: EntryError[] = [];
      const roles = await communities.rolesOf(actor);
      for (const entry of entries) {
        try {
          const target = await community(actor, entry.id);
          if (record.communityIds.includes(target.id)) throw badRequest("The record is already included in this community.");
          const open = await requests.findRequests({
            type: INCLUSION_TYPE,
            topic: { kind: "record", id: record.id },
            receiver: { kind: "community", id: target.id },
            openOnly: true,
          });
          if (open.length) throw badRequest("There is already an open inclusion request for this community.");
          const comment = entry.comment === undefined ? null : readCommentBody(entry.comment, true);
          const request = await requests.createRequest(actor, {
            type: INCLUSION_TYPE,
            receiver: { kind: "community", id: target.id },
            topic: { kind: "record", id: record.id },
            title: await curation.recordTitle(record.id),
            submit: true,
            comment,
          });
          if (!entry.requireReview && canPublishDirectly(actor, target, roles)) await requests.runAction(systemActor, request.id, "accept");
          processed.push({ community_id: target.id, request_id: request.id, request: await requests.presentFor(actor, request.id) });
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          errors.push({ community: entry.id, message: messageOf(err) });
        }
      }
      if (processed.length === 0) throw nothingDone("No community could be asked to include the record.", { processed, errors });
      return { processed, errors };
    },

    /** Removes the record from each community (its owner, or the community's curators); 200 when one was removed, else 400. */
    async removeCommunities(actor: Actor, recordId: string, body: unknown) {
      requireUser(actor);
      const record = await curation.readable(actor, recordId);
      const keys = readRemovalBody(body, "communities");
      const roles = await communities.rolesOf(actor);
      const errors: EntryError[] = [];
      let removed = 0;
      for (const key of keys) {
        try {
          const target = await community(actor, key);
          // The record's managers, or this community's curators (a curator of another community may not).
          const isManager = actor.kind === "user" && record.ownerId === actor.userId;
          if (!isManager && !curatesCommunity(actor, target.id, roles)) throw forbidden("Only the record's owner or the community's curators may remove it from the community.");
          if (!(await curation.exclude(record.id, target.id))) throw badRequest("The record is not included in this community.");
          removed++;
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          errors.push({ community: key, message: messageOf(err) });
        }
      }
      if (removed === 0) {
        if (errors.every((e) => e.message.startsWith("Only the record's owner"))) throw forbidden(errors[0]!.message);
        throw nothingDone("The record was removed from no community.", { errors });
      }
      return errors.length ? { errors } : {};
    },

    /** Sets the record's default community (one it is in); the record's JSON after it. */
    async setDefaultCommunity(actor: Actor, recordId: string, body: unknown) {
      const record = await curation.managed(actor, recordId);
      const key = readDefaultBody(body);
      const found = await communities.findReadable(actor, key);
      if (!found || !(await curation.setDefault(record.id, found.id))) throw validationError([{ field: "default", messages: ["The record is not included in this community."] }]);
      return await curation.recordJson(actor, record.id);
    },

    /** A community's curators remove records from it (`DELETE /api/communities/{id}/records`). */
    async removeRecords(actor: Actor, communityKey: string, body: unknown) {
      requireUser(actor);
      const target = await community(actor, communityKey);
      if (!curatesCommunity(actor, target.id, await communities.rolesOf(actor))) throw forbidden("Only the community's curators, managers and owners remove its records.");
      const ids = readRemovalBody(body, "records");
      const errors: EntryError[] = [];
      for (const id of ids) {
        try {
          if (!(await curation.exclude(id, target.id))) throw badRequest("The record is not included in this community.");
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          errors.push({ record: id, message: messageOf(err) });
        }
      }
      return errors.length ? { errors } : {};
    },
  };
}
