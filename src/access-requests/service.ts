// Asking for access to a record's restricted files: `POST /records/{id}/access/request` makes a
// signed-in user's user-access-request at once, or mails anyone else a single-use link that makes
// their guest-access-request once confirmed (jobs.ts drops verifications never confirmed).
// Accepting and declining are the requests engine's, with this module's request types (request-types.ts).
import { systemActor, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { badRequest, notFound, validationError } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import { HOUR_MS } from "../core/time";
import type { AccessDirectory } from "../access/directory";
import type { AccessSettings } from "../access/settings";
import type { Curation } from "../records/curation";
import { canReadFiles } from "../records/policy";
import type { RecordsService } from "../records/service";
import type { UserDirectory } from "../requests/context";
import type { RequestsService } from "../requests/service";
import type { EntityRef } from "../requests/request-type";
import { verificationMail } from "./mail";
import { GUEST_ACCESS_REQUEST, USER_ACCESS_REQUEST, type AccessRequestInput, type AccessRequestPayload } from "./model";
import { askingAs, checkMayAsk, type AskingAs } from "./policy";
import * as store from "./store";
import { readAccessRequestBody } from "./validate";

/** How long a guest's verification link works (InvenioRDM: 6 hours). */
export const VERIFICATION_TTL_MS = 6 * HOUR_MS;
export const VERIFICATION_SENT = "Verification link sent out, please check your e-mail inbox";

export interface AccessRequestsDeps extends Deps {
  records: { curation: Pick<Curation, "readable">; loadRecordJson: RecordsService["loadRecordJson"] };
  requests: Pick<RequestsService, "createRequest" | "findRequests" | "findRequest">;
  users: Pick<UserDirectory, "emailOf">;
  /** The record's access settings (the access module's). */
  access: Pick<AccessDirectory, "settingsOf">;
  queueMail(mail: { to: string; subject: string; body: string; topic: string }): unknown;
}

/** A published record as asking for access needs it. */
interface AskedRecord {
  id: string;
  parentId: string;
  ownerId: number | null;
  title: string;
  filesOpen: boolean;
  settings: AccessSettings;
}

const isOpenRequest = (status: string) => status === "submitted";

type RecordJson = NonNullable<Awaited<ReturnType<RecordsService["loadRecordJson"]>>>;

export type AccessRequestsService = ReturnType<typeof createAccessRequestsService>;

export function createAccessRequestsService(deps: AccessRequestsDeps) {
  const { db, clock, config, links, records, requests, users, access } = deps;

  /** The record as stored (no permission check: callers have authorised), with what everyone may read of it. */
  async function describe(id: string, parentId: string, ownerId: number | null): Promise<AskedRecord & { json: RecordJson }> {
    const json = await records.loadRecordJson(id);
    if (!json) throw notFound("The persistent identifier does not exist.");
    const asRow = { accessRecord: json.access.record, document: { access: json.access } };
    return {
      id,
      parentId,
      ownerId,
      title: String(json.metadata?.title ?? ""),
      filesOpen: canReadFiles(asRow, "none"),
      settings: await access.settingsOf(parentId),
      json,
    };
  }

  /** 400 when the requester has an open access request on any version of the record (a grant covers them all). */
  async function checkNoOpenRequest(type: string, createdBy: EntityRef, parentId: string) {
    const open = await requests.findRequests({ type, createdBy, openOnly: true });
    let sameParent = false;
    // A requester has a handful of open requests; stops at the first on the same record.
    for (const r of open) {
      if (!r.topic || r.topic.kind !== "record" || !isOpenRequest(r.status)) continue;
      try {
        sameParent = (await records.curation.readable(systemActor, r.topic.id)).parentId === parentId;
      } catch {
        sameParent = false;
      }
      if (sameParent) break;
    }
    if (sameParent) throw badRequest("You have already asked for access to this record: the request is open, waiting for the owner's answer.");
  }

  function payloadFor(record: AskedRecord, input: Pick<AccessRequestInput, "email" | "fullName" | "message" | "consent">): AccessRequestPayload {
    return {
      permission: "view",
      email: input.email,
      full_name: input.fullName,
      message: input.message,
      consent_to_share_personal_data: input.consent ? "true" : "false",
      secret_link_expiration: record.settings.secret_link_expiration,
      record_title: record.title,
      record_url: links.html(`/records/${record.id}`),
      record_api_url: links.api(`/records/${record.id}`),
    };
  }

  const titleOf = (record: AskedRecord) => (record.title ? `Access request for "${record.title}"` : "Access request");
  const commentOf = (message: string) => (message ? { content: message, format: "html" as const } : null);

  /** A signed-in user asking with their account's address: the request, submitted to the owner. */
  async function askAsUser(actor: Actor, record: AskedRecord, input: AccessRequestInput) {
    const userId = actor.kind === "user" ? String(actor.userId) : "";
    return db.write(async () => {
      await checkNoOpenRequest(USER_ACCESS_REQUEST, { kind: "user", id: userId }, record.parentId);
      return requests.createRequest(actor, {
        type: USER_ACCESS_REQUEST,
        receiver: { kind: "user", id: String(record.ownerId) },
        topic: { kind: "record", id: record.id },
        title: titleOf(record),
        payload: { ...payloadFor(record, input) },
        submit: true,
        comment: commentOf(input.message),
      });
    });
  }

  /** Anyone else: a single-use link to the address; the request is made when it is opened. */
  async function askAsGuest(record: AskedRecord, input: AccessRequestInput) {
    if (!input.fullName) throw validationError([{ field: "full_name", messages: ["Missing data for required field: the owner needs to know who asks."] }]);
    const token = newSecret();
    const now = clock.now();
    await store.insertVerification(db, {
      tokenHash: hashSecret(token),
      recordId: record.id,
      email: input.email,
      fullName: input.fullName,
      message: input.message,
      consent: input.consent,
      created: now,
      expiresAt: now + VERIFICATION_TTL_MS,
    });
    const text = verificationMail({ siteName: config.THEME_SITENAME, recordTitle: record.title, fullName: input.fullName, link: links.api("/access/requests/verify", { token }) });
    await deps.queueMail({ to: input.email, ...text, topic: `access-verification:${record.id}` });
    return { message: VERIFICATION_SENT };
  }

  return {
    /** `POST /records/{id}/access/request`: 200 with the request (a user with their own address) or with the verification message. */
    async requestAccess(actor: Actor, id: string, body: unknown) {
      // Reading the record first: a restricted record the caller cannot read answers as reading it does.
      const readable = await records.curation.readable(actor, id);
      const input = readAccessRequestBody(body);
      const record = await describe(readable.id, readable.parentId, readable.ownerId);
      const accountEmail = actor.kind === "user" ? await users.emailOf(String(actor.userId)) : null;
      const as: AskingAs = askingAs(actor, accountEmail, input.email);
      const callerReadsFiles = canReadFiles({ accessRecord: record.json.access.record, document: { access: record.json.access } }, readable.level);
      checkMayAsk(as, { filesOpen: record.filesOpen, callerReadsFiles, ownerId: record.ownerId, settings: record.settings, signedIn: actor.kind === "user" });
      return as === "user" ? askAsUser(actor, record, input) : askAsGuest(record, input);
    },

    /**
     * `GET /access/requests/verify?token=`: confirms a guest's address (once) and submits their
     * guest-access-request to the owner. 400 for a missing or expired token, 404 for an unknown or used one.
     */
    async verifyGuest(token: string | undefined) {
      if (!token || token.length > 200) throw badRequest("The verification link has no valid token: open the link from the e-mail as it is.");
      const now = clock.now();
      const hash = hashSecret(token);
      const result = await db.write(async (tx) => {
        const pending = await store.takeVerification(tx, hash);
        if (!pending) return { error: notFound("This verification link is unknown or was used already: ask for access again.") };
        if (pending.expiresAt <= now) return { error: badRequest("This verification link expired (it works for 6 hours): ask for access again.") };
        // The record may have changed since the guest asked: the rules are checked again.
        const readable = await records.curation.readable(systemActor, pending.recordId);
        const record = await describe(readable.id, readable.parentId, readable.ownerId);
        checkMayAsk("guest", { filesOpen: record.filesOpen, callerReadsFiles: false, ownerId: record.ownerId, settings: record.settings, signedIn: false });
        const email = pending.email.toLowerCase();
        await checkNoOpenRequest(GUEST_ACCESS_REQUEST, { kind: "email", id: email }, record.parentId);
        const request = await requests.createRequest(systemActor, {
          type: GUEST_ACCESS_REQUEST,
          createdBy: { kind: "email", id: email },
          receiver: { kind: "user", id: String(record.ownerId) },
          topic: { kind: "record", id: record.id },
          title: titleOf(record),
          payload: { ...payloadFor(record, { email: pending.email, fullName: pending.fullName, message: pending.message, consent: pending.consent }) },
          submit: true,
          comment: commentOf(pending.message),
        });
        return { request };
      });
      // An expired token is gone for good (taken above); the error is answered after that commit.
      if ("error" in result) throw result.error;
      return {
        message: "Your e-mail address is confirmed and your access request was sent to the record's owner. You will hear of their answer by e-mail.",
        request: { id: result.request.id, number: result.request.number, status: result.request.status, title: result.request.title },
      };
    },
  };
}
