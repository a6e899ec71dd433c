// Input shapes for accounts and the users directory.
import { t } from "elysia";

/** Profile and e-mail visibility: `public` shows it to others, `restricted` only to the user and administrators. */
export const VISIBILITIES = ["public", "restricted"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export interface CreateUserInput {
  email: string;
  username?: string;
  password?: string;
  fullName?: string;
  admin?: boolean;
  /** Profile visibility; default ACCOUNTS_DEFAULT_USER_VISIBILITY. A string: the CLI passes what it was given. */
  visibility?: string;
  /** E-mail visibility; default `restricted` (only the user and administrators see it). */
  emailVisibility?: string;
}

/** What a profile edit may change; absent fields stay as they are. */
export interface ProfileChange {
  fullName?: string;
  affiliations?: string;
  /** Bare, hyphenated or as its https://orcid.org/ URL; "" removes it. */
  orcid?: string;
  visibility?: string;
}

/** InvenioRDM's username rule: a letter, then letters, digits, `-` or `_`; 3 to 255 characters. */
export const USERNAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{2,254}$/;
// Deliberately loose (RFC 5322 is not a regex); the point is to catch obvious typos.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$/;
export const MIN_PASSWORD_LENGTH = 8;

/** `q` only: the directory has no paging (at most 10 hits) and one order (`username`). */
export const userSearchQuery = t.Object({ q: t.Optional(t.String()) }, { additionalProperties: true });

export type UserSearchQuery = typeof userSearchQuery.static;

/** `GET /api/users/all` (administrators): `q`, the account-state filters, paging and a sort; values are checked by the service. */
export const allUsersQuery = t.Object(
  {
    q: t.Optional(t.String()),
    is_active: t.Optional(t.String()),
    is_blocked: t.Optional(t.String()),
    is_verified: t.Optional(t.String()),
    is_confirmed: t.Optional(t.String()),
    is_admin: t.Optional(t.String()),
    /** Accounts made on or after this date (YYYY-MM-DD, UTC) or moment (ISO 8601). */
    created_since: t.Optional(t.String()),
    sort: t.Optional(t.String()),
    page: t.Optional(t.String()),
    size: t.Optional(t.String()),
  },
  { additionalProperties: true },
);

export type AllUsersQuery = typeof allUsersQuery.static;

/** Orders of the administrators' list; `newest` (accounts made last first) by default. */
export const ALL_USERS_SORTS = ["newest", "oldest", "username", "email"] as const;
export type AllUsersSort = (typeof ALL_USERS_SORTS)[number];

/** The account-state filters of the administrators' list (absent: either). */
export interface AccountFilters {
  active?: boolean;
  blocked?: boolean;
  verified?: boolean;
  /** The e-mail address confirmed (confirmed_at set). */
  confirmed?: boolean;
  /** An administrator. */
  admin?: boolean;
  /** Made at or after this time (ms). */
  createdSince?: number;
}

/** How an administrative action came in, for the audit log: the pages, the REST API or the CLI, and the client's address. */
export interface ActionContext {
  via: "web" | "api" | "cli";
  address?: string | null;
}

/** What `delete` does with the user's published records: kept under the placeholder owner, or removed with tombstones (reason `spam`). */
export const DELETE_RECORDS_CHOICES = ["keep", "remove"] as const;
export type DeleteRecordsChoice = (typeof DELETE_RECORDS_CHOICES)[number];
