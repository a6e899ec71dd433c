// The community role ladder (reader < curator < manager < owner), written only here: the roles,
// their titles, and the comparisons every module makes on them. Imports nothing, so any layer may use it.

/** Community roles, weakest first: a member holding several (directly and through groups) has the strongest. */
export const ROLES = ["reader", "curator", "manager", "owner"] as const;

export type Role = (typeof ROLES)[number];

/** InvenioRDM's role titles: facet labels, pages and invitation texts. */
export const ROLE_TITLES: Record<Role, string> = { reader: "Reader", curator: "Curator", manager: "Manager", owner: "Owner" };

export const isRole = (value: unknown): value is Role => typeof value === "string" && (ROLES as readonly string[]).includes(value);

/** The role's place on the ladder, 0 for `reader`. */
export const rank = (role: Role): number => ROLES.indexOf(role);

/** Whether `role` (none: not a member) is `wanted` or stronger: `atLeast(role, "curator")` is curators, managers and owners. */
export const atLeast = (role: Role | null | undefined, wanted: Role): boolean => role !== null && role !== undefined && rank(role) >= rank(wanted);

/** The stronger of two roles (a user may be a member directly and through groups). */
export const strongerRole = (a: Role | undefined, b: Role): Role => (a && rank(a) >= rank(b) ? a : b);

/** Whether a member holding `giver` may give, change or take away `role`: owners every role, managers every role but owner, curators and readers none. */
export const managesRole = (giver: Role | null | undefined, role: Role): boolean => giver === "owner" || (giver === "manager" && role !== "owner");
