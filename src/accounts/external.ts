// A person proved by a sign-in source other than Cairn's own password — an OpenID Connect provider,
// a SAML IdP, the LDAP directory — mapped to a Cairn account and given a session: one rule for
// every source, so that none links, makes or opens accounts differently.
import { systemActor } from "../core/actor";
import { HttpError } from "../core/errors";
import type { GroupsService } from "../groups/service";
import type { SessionsService, SignInClient } from "../sessions/service";
import { EMAIL_PATTERN } from "../users/model";
import { BLOCKED_MESSAGE, signInRefusal } from "../users/policy";
import type { UsersService } from "../users/service";
import { createEmailStep, keepExternalSignUp, type EmailStepDeps } from "./oidc-email";
import { allowedDomainError } from "./policy";
import * as store from "./oidc-store";

/** A sign-in source, as far as accounts are concerned. */
export interface ExternalSource {
  /** What its identities are kept under in sign_in_identities: an OIDC provider's name, `saml:{name}`, `ldap`. */
  key: string;
  /** Its name for people ("University account"). */
  title: string;
  /** Its verified addresses are believed: they confirm a new account and may link a confirmed local account of that address. */
  trustEmail: boolean;
  /** Its groups become the person's group memberships (groups.syncMemberships). */
  syncGroups: boolean;
}

/** What the source proved about the person. */
export interface ExternalPerson {
  /** The source's stable identifier of the person (OIDC `sub`, SAML's eduPersonPrincipalName or persistent NameID, the directory entry's entryUUID). */
  subject: string;
  email: string | null;
  /** The source says it checked the address (OIDC `email_verified`; an institution's IdP or directory: its own records). */
  emailVerified: boolean;
  fullName: string;
  affiliation: string;
  /** The groups it names; null when it said nothing about groups (memberships are then left as they are). */
  groups: string[] | null;
}

export interface ExternalDeps extends EmailStepDeps {
  users: Pick<UsersService, "registerUser" | "findUserByEmail" | "findUserById">;
  sessions: Pick<SessionsService, "openSession" | "reserveAccountMail">;
  groups: Pick<GroupsService, "syncMemberships">;
}

/** Where the person is and came from: the path to land on afterwards, and the client's address (account mail is counted by it). */
export interface SignInContext {
  next: string;
  address: string | null;
  /** The client as the sign-in history keeps it (sessions.clientOf); without it, `address` alone. */
  client?: SignInClient;
}

/**
 * What a source's sign-in leads to: the account (signed in), or nothing yet. `link-first`: an
 * account has the source's address but may not be linked without its password; `ticket` is the
 * secret of the cookie that keeps the pending link in this browser until the person signs in to it.
 * `check-mail`: a new address the source does not vouch for; a one-use link went to it, and
 * `ticket` binds it to this browser.
 */
export type AccountOutcome = { kind: "account"; userId: number } | { kind: "link-first"; ticket: string; email: string } | { kind: "check-mail"; ticket: string; email: string };
export type ExternalOutcome = { kind: "session"; secret: string; userId: number } | Exclude<AccountOutcome, { kind: "account" }>;

export type ExternalSignIn = ReturnType<typeof createExternalSignIn>;

/** Half an hour to sign in with the password to link a proved identity to the account of its address. */
export const PENDING_LINK_MS = 30 * 60_000;

/** A refusal that is the source's (or its answer's) fault, not the person's: a 4xx page all the same, never a 500. */
export const sourceRefused = (title: string, why: string) => new HttpError(400, `${title} did not sign you in: ${why}. Start again from the sign-in page.`);

export function createExternalSignIn(deps: ExternalDeps) {
  const { db, clock, config } = deps;
  const emailStep = createEmailStep(deps);

  /** Keeps the proved identity as a pending link of this browser (one use, half an hour, its ticket hashed). */
  const pendingLink = (source: ExternalSource, person: ExternalPerson, email: string, next: string): Promise<string> =>
    keepExternalSignUp(
      deps,
      { mailHash: null, provider: source.key, subject: person.subject, fullName: person.fullName, orcid: null, email, next, purpose: "link" },
      PENDING_LINK_MS,
    );

  /**
   * The account of a source's subject: its linked one; else the local account with the same
   * e-mail when the source is trusted for e-mail and says the address is verified (and that
   * account's own address is confirmed: an unconfirmed one may be a squatter's, who knows its
   * password); else a new confirmed account when the source vouches for the address. Nothing is
   * linked or made otherwise: an account of the address is linked once the person signs in to it
   * with its password in this browser (`link-first`); a new address is proved by a mailed link
   * first (`check-mail`), so that whoever owns the mailbox never shares an account with a
   * provider identity it did not link.
   */
  async function accountOf(source: ExternalSource, person: ExternalPerson, context: SignInContext): Promise<AccountOutcome> {
    const email = person.email?.trim() || null;
    const identity = await store.findIdentity(db, source.key, person.subject);
    const now = clock.now();
    if (identity) {
      await store.touchIdentity(db, source.key, person.subject, email, now);
      return { kind: "account", userId: identity.userId };
    }
    if (!email || !EMAIL_PATTERN.test(email)) throw sourceRefused(source.title, "it did not give an e-mail address (the account needs one)");
    const trusted = source.trustEmail && person.emailVerified;
    const existing = await deps.users.findUserByEmail(systemActor, email);
    if (existing) {
      if (!trusted || existing.confirmedAt === null) return { kind: "link-first", ticket: await pendingLink(source, person, existing.email, context.next), email: existing.email };
      await store.insertIdentity(db, { provider: source.key, subject: person.subject, userId: existing.id, email, created: now, lastSignIn: now });
      return { kind: "account", userId: existing.id };
    }
    // A new account, as by sign-up: only for the institution's addresses when ACCOUNTS_REGISTER_ALLOWED_DOMAINS says so.
    const outside = allowedDomainError(email, config.ACCOUNTS_REGISTER_ALLOWED_DOMAINS);
    if (outside) throw new HttpError(403, `${source.title} signed you in as ${email}, but no account can be made for it here: ${outside}`);
    if (!trusted) {
      const ticket = await emailStep.mailNow(source.key, person.subject, person.fullName, email, context);
      return { kind: "check-mail", ticket, email };
    }
    const user = await deps.users.registerUser({ email, fullName: person.fullName || undefined, affiliations: person.affiliation || undefined, confirmed: true });
    await store.insertIdentity(db, { provider: source.key, subject: person.subject, userId: user.id, email, created: now, lastSignIn: now });
    return { kind: "account", userId: user.id };
  }

  /** A new session for the account (its sign-in recorded as the source's), unless it may not sign in by any way (users/policy.ts signInRefusal). */
  async function sessionFor(userId: number, source: Pick<ExternalSource, "key">, context: Pick<SignInContext, "address" | "client">): Promise<{ secret: string }> {
    const user = await deps.users.findUserById(userId);
    const refusal = user ? signInRefusal(user, config.ACCOUNTS_CONFIRM_EMAIL) : "inactive";
    if (refusal === "blocked") throw new HttpError(403, BLOCKED_MESSAGE);
    if (refusal === "inactive") throw new HttpError(403, "This account is deactivated: it cannot sign in.");
    if (refusal === "unconfirmed") throw new HttpError(403, `Confirm your e-mail address first: follow the link in the mail we sent to ${user!.email}, then sign in again.`);
    const client = context.client ?? { address: context.address, userAgent: null };
    return { secret: (await deps.sessions.openSession(userId, { method: source.key, client })).secret };
  }

  return {
    accountOf,
    sessionFor,

    /** The person's account (found, linked or made), its groups brought in line with the source's, and a new session; or what must happen first. */
    async signIn(source: ExternalSource, person: ExternalPerson, context: SignInContext): Promise<ExternalOutcome> {
      const found = await accountOf(source, person, context);
      if (found.kind !== "account") return found;
      const session = await sessionFor(found.userId, source, context);
      if (source.syncGroups && person.groups !== null) await deps.groups.syncMemberships(systemActor, found.userId, source.key, person.groups);
      return { kind: "session", ...session, userId: found.userId };
    },
  };
}
