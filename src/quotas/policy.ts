// Who may see quotas and usage: a user their own, whoever manages a draft's files that draft's,
// administrators everyone's. Setting a quota is for administrators only (service.ts requireAdmin).
import { isAdmin, type Actor } from "../core/actor";
import { forbidden } from "../core/errors";

export const canReadRecordUsage = (actor: Actor, managesDraft: boolean) => isAdmin(actor) || managesDraft;

export function canReadUserUsage(actor: Actor, userId: number): void {
  if (isAdmin(actor) || (actor.kind === "user" && actor.userId === userId)) return;
  throw forbidden("Only the user and administrators see a user's storage quota.");
}
