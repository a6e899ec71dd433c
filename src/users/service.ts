// Accounts (creating and listing users, passwords) and the users directory API.
import { requireAdmin, type Actor } from "../core/actor";
import { initialsOf, renderAvatar, type Avatar } from "../core/avatar";
import type { Deps } from "../core/deps";
import { forbidden, notFound, validationError, type FieldError } from "../core/errors";
import { isOrcid } from "../records/metadata/identifiers";
import type { SearchResult } from "../core/paging";
import { queryWords } from "../core/word-match";
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH, USERNAME_PATTERN, VISIBILITIES, type CreateUserInput, type ProfileChange, type UserSearchQuery, type Visibility } from "./model";
import { checkSearchUsers, requireSelfOrAdmin, searchableUserColumns, userViewOf, visibleUsersFilter } from "./policy";
import { presentUser, type UserJson } from "./present";
import * as store from "./store";

/** An account as the services answer it (the administration pages show it). */
export type UserRow = store.UserRow;

/** InvenioRDM's directory: at most 10 results, no paging. */
export const USER_SEARCH_LIMIT = 10;

const isVisibility = (v: string): v is Visibility => (VISIBILITIES as readonly string[]).includes(v);

/** An ORCID iD as 0000-0002-1825-0097 (from its URL or any hyphenation); "" for none; false when it is not one. */
export function normalOrcid(value: string): string | false {
  const bare = value.trim().replace(/^https?:\/\/orcid\.org\//i, "");
  if (!bare) return "";
  if (!isOrcid(bare)) return false;
  const digits = bare.replace(/[- ]/g, "").toUpperCase();
  return digits.match(/.{4}/g)!.join("-");
}

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: Deps) {
  const { db, clock, config, links } = deps;

  async function checkNewUser(input: CreateUserInput): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    const email = input.email?.trim() ?? "";
    if (!EMAIL_PATTERN.test(email)) errors.push({ field: "email", messages: ["Not a valid e-mail address."] });
    else if (await store.findUserByEmail(db, email)) errors.push({ field: "email", messages: ["This e-mail address is already registered."] });
    if (input.username !== undefined) {
      if (!USERNAME_PATTERN.test(input.username)) {
        errors.push({ field: "username", messages: ["A username starts with a letter and has 3 or more letters, digits, '-' or '_'."] });
      } else if (await store.findUserByUsername(db, input.username)) {
        errors.push({ field: "username", messages: ["This username is already taken."] });
      }
    }
    if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) {
      errors.push({ field: "password", messages: [`A password has at least ${MIN_PASSWORD_LENGTH} characters.`] });
    }
    for (const field of ["visibility", "emailVisibility"] as const) {
      const value = input[field];
      if (value !== undefined && !isVisibility(value)) errors.push({ field, messages: [`Must be one of: ${VISIBILITIES.join(", ")}.`] });
    }
    return errors;
  }

  /** A user the actor may see; 403 otherwise, missing users included, so ids cannot be probed. */
  async function loadVisibleUser(actor: Actor, rawId: string) {
    const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
    const row = id === null ? undefined : await store.findVisibleUserById(db, id, visibleUsersFilter(actor));
    if (!row) throw forbidden();
    return row;
  }

  return {
    async createUser(actor: Actor, input: CreateUserInput) {
      requireAdmin(actor);
      const errors = await checkNewUser(input);
      if (errors.length) throw validationError(errors);
      const passwordHash = input.password ? await Bun.password.hash(input.password) : null;
      const now = clock.now();
      return store.insertUser(db, {
        email: input.email.trim(),
        username: input.username ?? null,
        passwordHash,
        fullName: input.fullName ?? "",
        isAdmin: Boolean(input.admin),
        visibility: input.visibility ?? config.ACCOUNTS_DEFAULT_USER_VISIBILITY,
        emailVisibility: input.emailVisibility ?? "restricted",
        confirmedAt: now,
        created: now,
        updated: now,
      });
    },

    /**
     * An account a person made for themself (the accounts service decided sign-up is open to
     * them): unconfirmed unless `confirmed`, with the default visibility. Without a password (an
     * account made by an external sign-in) it opens only through its provider.
     */
    async registerUser(input: { email: string; password?: string; fullName?: string; affiliations?: string; orcid?: string; confirmed: boolean }) {
      const errors = await checkNewUser({ email: input.email, password: input.password, fullName: input.fullName });
      if (errors.length) throw validationError(errors);
      const now = clock.now();
      return store.insertUser(db, {
        email: input.email.trim(),
        passwordHash: input.password === undefined ? null : await Bun.password.hash(input.password, "argon2id"),
        fullName: input.fullName?.trim() ?? "",
        affiliations: input.affiliations?.trim().slice(0, 255) ?? "",
        ...(input.orcid && normalOrcid(input.orcid) ? { orcid: normalOrcid(input.orcid) as string } : {}),
        visibility: config.ACCOUNTS_DEFAULT_USER_VISIBILITY,
        emailVisibility: "restricted",
        confirmedAt: input.confirmed ? now : null,
        created: now,
        updated: now,
      });
    },

    /** The account's e-mail address is proved (a confirmation link, a password reset); a second proof changes nothing. */
    confirmUser: (id: number) => store.confirmUser(db, id, clock.now()),

    /** A new address, proved from itself: 400 when another account has taken it meanwhile. */
    async changeEmail(id: number, email: string) {
      const holder = await store.findUserByEmail(db, email);
      if (holder && holder.id !== id) throw validationError([{ field: "email", messages: ["This e-mail address is already registered."] }]);
      await store.updateUser(db, id, { email, confirmedAt: clock.now() }, clock.now());
    },

    /** The account a person edits (themself, or an administrator any). */
    async readAccount(actor: Actor, id: number) {
      requireSelfOrAdmin(actor, id);
      const row = await store.findUserById(db, id);
      if (!row) throw notFound("The account does not exist.");
      return row;
    },

    /**
     * The profile: full name, affiliations, ORCID iD (checksum checked, kept as 0000-0000-0000-0000)
     * and visibility. The e-mail address is not changed here (the accounts service confirms it first).
     */
    async updateProfile(actor: Actor, id: number, change: ProfileChange) {
      requireSelfOrAdmin(actor, id);
      const errors: FieldError[] = [];
      const orcid = change.orcid === undefined ? undefined : normalOrcid(change.orcid);
      if (orcid === false) errors.push({ field: "orcid", messages: ["Not a valid ORCID iD (e.g. 0000-0002-1825-0097): its last character is a checksum."] });
      if (change.visibility !== undefined && !isVisibility(change.visibility)) errors.push({ field: "visibility", messages: [`Must be one of: ${VISIBILITIES.join(", ")}.`] });
      if (change.fullName !== undefined && change.fullName.length > 255) errors.push({ field: "full_name", messages: ["At most 255 characters."] });
      if (change.affiliations !== undefined && change.affiliations.length > 255) errors.push({ field: "affiliations", messages: ["At most 255 characters."] });
      if (errors.length) throw validationError(errors);
      const fields = {
        ...(change.fullName === undefined ? {} : { fullName: change.fullName.trim() }),
        ...(change.affiliations === undefined ? {} : { affiliations: change.affiliations.trim() }),
        ...(orcid === undefined ? {} : { orcid: orcid || null }),
        ...(change.visibility === undefined ? {} : { visibility: change.visibility }),
      };
      await store.updateUser(db, id, fields, clock.now());
      return (await store.findUserById(db, id))!;
    },

    async listUsers(actor: Actor) {
      requireAdmin(actor);
      return store.listUsers(db);
    },

    /** The active administrators' e-mails (who to contact about this repository). */
    async adminEmails(actor: Actor): Promise<string[]> {
      requireAdmin(actor);
      return store.listAdminEmails(db);
    },

    /** For the CLI and services that address people by e-mail. */
    async findUserByEmail(actor: Actor, email: string) {
      requireAdmin(actor);
      return (await store.findUserByEmail(db, email)) ?? null;
    },

    findUserById: async (id: number) => (await store.findUserById(db, id)) ?? null,

    countAdmins: () => store.countAdmins(db),

    async checkPassword(email: string, password: string) {
      const user = await store.findUserByEmail(db, email);
      if (!user?.passwordHash || !user.active) return null;
      return (await Bun.password.verify(password, user.passwordHash)) ? user : null;
    },

    /** The directory: every query word prefixes a word of a searchable field; 10 hits at most, by username. */
    async searchUsers(actor: Actor, query: UserSearchQuery): Promise<SearchResult<UserJson>> {
      checkSearchUsers(actor);
      const words = queryWords(query.q);
      const { rows, total } = await store.searchUsers(db, visibleUsersFilter(actor), words, searchableUserColumns(actor), USER_SEARCH_LIMIT);
      return {
        hits: { hits: rows.map((row) => presentUser(row, userViewOf(actor, row), links)), total },
        sortBy: "username",
        // No prev/next: the directory is not paged.
        links: { self: links.api("/users", { q: query.q, sort: "username" }) },
      };
    },

    async readUser(actor: Actor, id: string): Promise<UserJson> {
      const row = await loadVisibleUser(actor, id);
      return presentUser(row, userViewOf(actor, row), links);
    },

    /** Coloured by the id; lettered by the full name's initials, else the username's or e-mail's first letter. */
    async readUserAvatar(actor: Actor, id: string): Promise<Avatar> {
      const row = await loadVisibleUser(actor, id);
      const label = row.fullName.trim() ? initialsOf(row.fullName, 2) : initialsOf(row.username ?? row.email, 1);
      return renderAvatar(String(row.id), label);
    },
  };
}
