// Who may ask for access to a record's files, and how: a signed-in user asking with their own
// account's address makes a user-access-request at once, anyone else (a guest, or a user giving
// another address) confirms the address first. Refusals are 403 with the reason, as InvenioRDM's.
import type { Actor } from "../core/actor";
import { badRequest, forbidden } from "../core/errors";
import type { AccessSettings } from "../access/settings";

export type AskingAs = "user" | "guest";

/** The facts about the record and the caller the rules read. */
export interface AskFacts {
  /** Everyone reads the record and its files (public, files public, no active embargo). */
  filesOpen: boolean;
  /** The caller reads the files already (owner, grant, link, community member...). */
  callerReadsFiles: boolean;
  ownerId: number | null;
  settings: AccessSettings;
  /** The caller is signed in (asking as a guest with another address than their account's). */
  signedIn: boolean;
}

/** A user asks as themselves when the address is their account's (case-insensitive); everyone else as a guest. */
export function askingAs(actor: Actor, accountEmail: string | null, email: string): AskingAs {
  return actor.kind === "user" && accountEmail !== null && accountEmail.trim().toLowerCase() === email.trim().toLowerCase() ? "user" : "guest";
}

/** Throws the refusal of this request for access, if any (403 with the reason; 400 when the record has nobody to ask). */
export function checkMayAsk(as: AskingAs, facts: AskFacts): void {
  if (facts.filesOpen) throw forbidden("The record and its files are public: there is no access to ask for.");
  if (as === "user" && facts.callerReadsFiles) throw forbidden("You already have access to the files of this record.");
  if (as === "user" && !facts.settings.allow_user_requests) throw forbidden("The owner of this record does not accept access requests from users.");
  if (as === "guest" && !facts.settings.allow_guest_requests) {
    const hint = facts.signedIn ? " Ask with your account's e-mail address to make a user's request." : "";
    throw forbidden(`The owner of this record does not accept access requests from guests.${hint}`);
  }
  if (facts.ownerId === null) throw badRequest("This record has no owner who could grant access.");
}
