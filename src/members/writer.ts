// Adding a membership: the one write both the members endpoints (groups added directly) and the
// request types (an accepted invitation or membership request, inside the engine's transaction)
// make. Built from the store alone, so the requests engine can be handed it before members exist.
import { badRequest, validationError } from "../core/errors";
import { newUuid } from "../core/ids";
import type { Db } from "../db/port";
import type { Role } from "../communities/roles";
import * as store from "./store";

/** A membership to add (the members endpoints, and the request types inside the engine's transaction). */
export interface MemberToAdd {
  communityId: string;
  member: { kind: string; id: string };
  role: Role;
  visible: boolean;
  now: number;
  /** The membership's id, when the invitation promised one (its listing showed it). */
  id?: string;
}

export const ALREADY_MEMBER = "A member was already added or invited.";

export function createMembershipWriter(db: Db) {
  async function insert(input: MemberToAdd) {
    const isUser = input.member.kind === "user";
    const existing = isUser
      ? await store.findUserMembership(db, input.communityId, Number(input.member.id))
      : (await store.findMembers(db, input.communityId, [], [input.member.id])).length > 0;
    if (existing) throw validationError([{ field: "members", messages: [ALREADY_MEMBER] }], ALREADY_MEMBER);
    await store.insertMember(db, {
      id: input.id ?? newUuid(),
      communityId: input.communityId,
      userId: isUser ? Number(input.member.id) : null,
      groupId: isUser ? null : input.member.id,
      role: input.role,
      visible: input.visible,
      created: input.now,
      updated: input.now,
    });
  }

  return {
    insert,
    /** For the request types (request-types.ts), inside the engine's transaction. */
    async addMember(input: MemberToAdd) {
      if (input.member.kind !== "user" && input.member.kind !== "group") throw badRequest("Invalid member specified.");
      await insert(input);
    },
  };
}

/** What the invitation and membership-request types write with. */
export type MembershipWriter = Pick<ReturnType<typeof createMembershipWriter>, "addMember">;
