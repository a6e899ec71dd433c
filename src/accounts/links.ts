// The external identities linked to an account (account settings → linked accounts): listed with
// their sources' names, linked while signed in (finishLink: the one ending of every source's link —
// OIDC and SAML alike — once the identity is proved), unlinked (never the last way in), and a pending
// link (a provider's address is an existing account's) completed by a password sign-in to that
// account in the browser that proved the identity.
import type { SignInClient } from "../sessions/service";
import type { Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { forbidden, HttpError, notFound, unauthorized } from "../core/errors";
import { hashSecret } from "../core/ids";
import type { UsersService } from "../users/service";
import * as store from "./oidc-store";
import { knownSourceTitle, sourceTitle } from "./sources";

export interface LinksDeps extends Deps {
  users: Pick<UsersService, "findUserById">;
}

/** One identity as the settings page shows it. */
export interface LinkedIdentity {
  provider: string;
  subject: string;
  title: string;
  /** The address the source gave at the last sign-in. */
  email: string | null;
  created: number;
  lastSignIn: number;
}

/** Where a link started from the settings comes back to. */
export const LINKED_ACCOUNTS_PATH = "/account/settings/linked-accounts";

/** Who is coming back from a source: the user signed in in this browser now (if any), and the client's address. */
export interface Returning {
  userId: number | null;
  address: string | null;
  /** The client as the sign-in history keeps it (sessions.clientOf). */
  client?: SignInClient;
}

/** A source that can be linked from the settings page: its identities' key (an OIDC provider's name, `saml:{name}` for a SAML IdP) and title. */
export interface LinkableSource {
  key: string;
  title: string;
}

/**
 * A link started by a signed-in person, on its way back: refused (403) unless that person is still
 * the one signed in in this browser, so whoever signs in meanwhile (or signing out) is never handed
 * the identity someone else set out to link.
 */
export function checkSameLinker(linkUserId: number, signedInUserId: number | null, title: string): void {
  if (signedInUserId !== linkUserId)
    throw forbidden(`You are no longer signed in as the person who started linking ${title}: sign in again and link it from your linked accounts.`);
}

/** What a password sign-in did with the browser's pending link: linked, dropped (with why), or nothing was pending any more. */
export type PendingLinkOutcome = { kind: "linked"; provider: string } | { kind: "dropped"; provider: string; why: "other-address" | "linked-elsewhere" } | { kind: "gone" };

export type LinkedAccounts = ReturnType<typeof createLinkedAccounts>;

export function createLinkedAccounts(deps: LinksDeps) {
  const { db, clock, config } = deps;

  /** The account whose identities `actor` may see and change: its own, or any for an administrator. */
  async function accountFor(actor: Actor, userId: number) {
    if (actor.kind === "anonymous") throw unauthorized("Sign in to see your linked accounts.");
    if (actor.kind === "user" && actor.userId !== userId && !actor.isAdmin) throw forbidden("These are another person's linked accounts.");
    const user = await deps.users.findUserById(userId);
    if (!user) throw notFound("There is no such account.");
    return user;
  }

  /**
   * Links an identity the source just proved to the signed-in person who asked for it (finishLink
   * checked that); 409 when it is another account's. Linked already to this one: nothing to do.
   */
  async function linkIdentity(userId: number, provider: string, subject: string, email: string | null): Promise<void> {
    const now = clock.now();
    await db.write(async (tx) => {
      const known = await store.findIdentity(tx, provider, subject);
      if (known && known.userId !== userId) {
        throw new HttpError(
          409,
          `This ${sourceTitle(config, provider)} identity is linked to another account already. Sign in with it to reach that account, or unlink it there first.`,
        );
      }
      if (known) await store.touchIdentity(tx, provider, subject, email, now);
      else await store.insertIdentity(tx, { provider, subject, userId, email, created: now, lastSignIn: now });
    });
  }

  return {
    /** The account's identities (oldest first), the configured sources (OIDC providers, then SAML IdPs) not linked yet, and whether it has a password. */
    async listLinkedAccounts(actor: Actor, userId: number): Promise<{ identities: LinkedIdentity[]; linkable: LinkableSource[]; hasPassword: boolean }> {
      const user = await accountFor(actor, userId);
      const rows = (await store.listIdentitiesOf(db, userId)).sort((a, b) => a.created - b.created || a.provider.localeCompare(b.provider));
      const identities = rows.map((r) => ({
        provider: r.provider,
        subject: r.subject,
        title: sourceTitle(config, r.provider),
        email: r.email,
        created: r.created,
        lastSignIn: r.lastSignIn,
      }));
      const linked = new Set(rows.map((r) => r.provider));
      const sources = [...config.OIDC_PROVIDERS.map((p) => ({ key: p.name, title: p.title })), ...config.SAML_IDPS.map((p) => ({ key: `saml:${p.name}`, title: p.title }))];
      const linkable = sources.filter((s) => !linked.has(s.key));
      return { identities, linkable, hasPassword: user.passwordHash !== null };
    },

    /**
     * Unlinks one identity of the account: 404 unless it is this account's; 409 when it is the
     * account's last way in (no password and no other identity). Counted and deleted in one
     * transaction, so two unlinks at once cannot both pass the count.
     */
    async unlinkIdentity(actor: Actor, userId: number, provider: string, subject: string): Promise<{ title: string }> {
      const user = await accountFor(actor, userId);
      await db.write(async (tx) => {
        const rows = await store.listIdentitiesOf(tx, userId);
        if (!rows.some((r) => r.provider === provider && r.subject === subject)) throw notFound("This account has no such linked account.");
        if (user.passwordHash === null && rows.length === 1) {
          throw new HttpError(
            409,
            `${sourceTitle(config, provider)} is the only way to sign in to this account (it has no password): link another account or set a password (Forgot your password? on the sign-in page) before unlinking it.`,
          );
        }
        await store.deleteIdentity(tx, userId, provider, subject);
      });
      return { title: sourceTitle(config, provider) };
    },

    /**
     * The end of every source's link started from the settings (once the source proved the identity
     * and the request was taken by the browser that started it): the same person still signed in
     * (else 403, nothing linked), then the identity linked to them (409 when it is another account's).
     * Nobody is signed in and no session changes.
     */
    async finishLink(
      linkUserId: number,
      signedInUserId: number | null,
      source: LinkableSource,
      person: { subject: string; email: string | null },
    ): Promise<{ kind: "linked"; provider: string }> {
      checkSameLinker(linkUserId, signedInUserId, source.title);
      await linkIdentity(linkUserId, source.key, person.subject, person.email);
      return { kind: "linked", provider: source.key };
    },

    /** The browser's pending link, for the page that asks for the password: 400 when it is unknown, used or too old. */
    async checkPendingLink(ticket: string | null): Promise<{ email: string; title: string }> {
      const row = ticket ? await store.findPendingLink(db, hashSecret(ticket), clock.now()) : null;
      if (!row?.email) throw new HttpError(400, "This sign-in is unknown, was finished already or took too long. Start again from the sign-in page.");
      return { email: row.email, title: sourceTitle(config, row.provider) };
    },

    /**
     * A password sign-in to `userId` in the browser holding the pending link's ticket: the ticket is
     * taken (one use) and the identity linked, but only to the account of the address the source
     * gave (the sign-in proved that account; signing in to another one links nothing).
     */
    async completePendingLink(ticket: string, userId: number): Promise<PendingLinkOutcome> {
      const now = clock.now();
      const row = await store.takePendingLink(db, hashSecret(ticket), now);
      const user = await deps.users.findUserById(userId);
      if (!row?.email || !user) return { kind: "gone" };
      if (user.email.toLowerCase() !== row.email.toLowerCase()) return { kind: "dropped", provider: row.provider, why: "other-address" };
      return await db.write(async (tx): Promise<PendingLinkOutcome> => {
        const known = await store.findIdentity(tx, row.provider, row.subject);
        if (known && known.userId !== userId) return { kind: "dropped", provider: row.provider, why: "linked-elsewhere" };
        if (!known) await store.insertIdentity(tx, { provider: row.provider, subject: row.subject, userId, email: row.email, created: now, lastSignIn: now });
        return { kind: "linked", provider: row.provider };
      });
    },

    /** The title of a source the configuration knows (for a notice named in a URL); null for any other key. */
    knownTitle: (key: string): string | null => knownSourceTitle(config, key),
  };
}
