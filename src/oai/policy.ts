// Who may do what with OAI-PMH: sets are managed by administrators; harvesting is open to all
// and sees public records only.
import { requireAdmin, type Actor } from "../core/actor";

/** 401 when anonymous, 403 for signed-in users without the administrator role. */
export const checkManageSets = (actor: Actor) => requireAdmin(actor);
