// A person proved by a sign-in source other than Cairn's own password — an OpenID Connect provider,
// a SAML IdP, the LDAP directory — mapped to a Cairn account and given a session: one rule for
// every source, so that none links, makes or opens accounts differently.
import { systemActor } from "../core/actor";
import type { Deps } from "../core/deps";
import { HttpError } from "../core/errors";
import type { GroupsService } from "../groups/service";
import type { SessionsService } from "../sessions/service";
import { EMAIL_PATTERN } from "../users/model";
import { signInRefusal } from "../users/policy";
import type { UsersService } from "../users/service";
import type { AccountsService } from "./service";
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
  /** The source's stable identifier of the person (OIDC `sub`, SAML's eduPersonPrincipalName or NameID, the directory entry's DN). */
  subject: string;
  email: string | null;
  /** The source says it checked the address (OIDC `email_verified`; an institution's IdP or directory: its own records). */
  emailVerified: boolean;
  fullName: string;
  affiliation: string;
  /** The groups it names; null when it said nothing about groups (memberships are then left as they are). */
  groups: string[] | null;
}

export interface ExternalDeps extends Deps {
  users: Pick<UsersService, "registerUser" | "findUserByEmail" | "findUserById">;
  sessions: Pick<SessionsService, "openSession">;
  accounts: Pick<AccountsService, "resendConfirmation">;
  groups: Pick<GroupsService, "syncMemberships">;
}

export type ExternalSignIn = ReturnType<typeof createExternalSignIn>;

/** A refusal that is the source's (or its answer's) fault, not the person's: a 4xx page all the same, never a 500. */
export const sourceRefused = (title: string, why: string) => new HttpError(400, `${title} did not sign you in: ${why}. Start again from the sign-in page.`);

export function createExternalSignIn(deps: ExternalDeps) {
  const { db, clock, config } = deps;

  /**
   * The account of a source's subject: its linked one; else the local account with the same
   * e-mail when the source is trusted for e-mail and says the address is verified (and that
   * account's own address is confirmed: an unconfirmed one may be a squatter's, who knows its
   * password); else a new account. A local account that may not be linked is a 409: the person
   * signs in with its password first.
   */
  async function accountOf(source: ExternalSource, person: ExternalPerson): Promise<number> {
    const email = person.email?.trim() || null;
    const identity = await store.findIdentity(db, source.key, person.subject);
    const now = clock.now();
    if (identity) {
      await store.touchIdentity(db, source.key, person.subject, email, now);
      return identity.userId;
    }
    if (!email || !EMAIL_PATTERN.test(email)) throw sourceRefused(source.title, "it did not give an e-mail address (the account needs one)");
    const trusted = source.trustEmail && person.emailVerified;
    const existing = await deps.users.findUserByEmail(systemActor, email);
    if (existing) {
      if (!trusted || existing.confirmedAt === null) {
        throw new HttpError(
          409,
          `An account with the e-mail address ${email} exists already. Sign in to it with its password first; you can then link your ${source.title} to it from your account settings.`,
          undefined,
          {},
          { code: "link-first" },
        );
      }
      await store.insertIdentity(db, { provider: source.key, subject: person.subject, userId: existing.id, email, created: now, lastSignIn: now });
      return existing.id;
    }
    // An address the source does not vouch for (or one not trusted) is proved like a sign-up's.
    const confirmed = trusted || !config.ACCOUNTS_CONFIRM_EMAIL;
    const user = await deps.users.registerUser({ email, fullName: person.fullName || undefined, affiliations: person.affiliation || undefined, confirmed });
    await store.insertIdentity(db, { provider: source.key, subject: person.subject, userId: user.id, email, created: now, lastSignIn: now });
    if (!confirmed) await deps.accounts.resendConfirmation(email, null);
    return user.id;
  }

  /** A new session for the account, unless it may not sign in by any way (users/policy.ts signInRefusal). */
  async function sessionFor(userId: number): Promise<{ secret: string }> {
    const user = await deps.users.findUserById(userId);
    const refusal = user ? signInRefusal(user, config.ACCOUNTS_CONFIRM_EMAIL) : "inactive";
    if (refusal === "inactive") throw new HttpError(403, "This account is deactivated: it cannot sign in.");
    if (refusal === "unconfirmed") throw new HttpError(403, `Confirm your e-mail address first: follow the link in the mail we sent to ${user!.email}, then sign in again.`);
    return { secret: (await deps.sessions.openSession(userId)).secret };
  }

  return {
    accountOf,
    sessionFor,

    /** The person's account (found, linked or made), its groups brought in line with the source's, and a new session. */
    async signIn(source: ExternalSource, person: ExternalPerson): Promise<{ secret: string; userId: number }> {
      const userId = await accountOf(source, person);
      const session = await sessionFor(userId);
      if (source.syncGroups && person.groups !== null) await deps.groups.syncMemberships(systemActor, userId, source.key, person.groups);
      return { ...session, userId };
    },
  };
}
