// What people send to make and keep their accounts, and the one-use links mailed to them.
import { DAY_MS, HOUR_MS } from "../core/time";

/** What a mailed link does; each purpose has its own lifetime. */
export const TOKEN_PURPOSES = ["confirm-email", "reset-password", "change-email"] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/** A confirmation stays valid a day (mail can be slow, people away); a password reset an hour. */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = { "confirm-email": DAY_MS, "reset-password": HOUR_MS, "change-email": DAY_MS };

/** The page each link opens (pages/accounts/*), its secret in `?token=`. */
export const TOKEN_PATHS: Record<TokenPurpose, string> = {
  "confirm-email": "/account/confirm",
  "reset-password": "/lost-password/reset",
  "change-email": "/account/confirm-email-change",
};

export interface SignUpInput {
  email: string;
  password: string;
  fullName?: string;
}

export interface ProfileInput {
  fullName?: string;
  affiliations?: string;
  /** An ORCID iD, bare or as its https://orcid.org/ URL; empty removes it. */
  orcid?: string;
  /** `public` or `restricted`. */
  visibility?: string;
  /** A new e-mail address: it takes effect once confirmed from that address. */
  email?: string;
}
