// The e-mail step of a first sign-in whose address is not believed: a provider that gives none
// (ORCID; the person gives one) or one not trusted for e-mail (its address is mailed at once). A
// one-use link (a day) goes to the address, and opening it in the browser that signed in makes the
// account (or links the identity to the account that has the address: the link proved the mailbox)
// and signs it in. Until then nothing is made: an address nobody proved never reaches an account.
import { systemActor } from "../core/actor";
import { badRequest, HttpError, validationError } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import { DAY_MS } from "../core/time";
import { EMAIL_PATTERN } from "../users/model";
import type { Deps } from "../core/deps";
import type { SessionsService } from "../sessions/service";
import type { UsersService } from "../users/service";
import * as store from "./oidc-store";
import { allowedDomainError } from "./policy";
import { sourceTitle } from "./sources";

/** Half an hour to give an address after coming back from the provider. */
export const EMAIL_STEP_MS = 30 * 60_000;
/** The mailed link works a day, in the browser that signed in with the provider (its ticket cookie). */
export const EMAIL_LINK_MS = DAY_MS;
export const EMAIL_STEP_PATH = "/oauth/confirm";

const goneLink = () => new HttpError(410, "This link no longer works: it was used already or it expired. Sign in with your provider again to get a new one.");
const noTicket = () => badRequest("This sign-in is unknown or took too long. Start again from the sign-in page.");

export interface EmailStepDeps extends Deps {
  users: Pick<UsersService, "registerUser" | "findUserByEmail">;
  sessions: Pick<SessionsService, "reserveAccountMail">;
  queueMail(mail: { to: string; subject: string; body: string; topic: string }): Promise<unknown>;
  deliverSoon(): Promise<void>;
}

/**
 * Keeps what a source proved, waiting in this browser for `lifetimeMs` (expired ones cleared first):
 * answers the secret of the ticket cookie that carries it, stored only as a hash.
 */
export async function keepExternalSignUp(
  deps: Pick<Deps, "db" | "clock">,
  row: Omit<store.ExternalSignUpRow, "ticketHash" | "created" | "expiresAt">,
  lifetimeMs: number,
): Promise<string> {
  const ticket = newSecret();
  const now = deps.clock.now();
  await deps.db.write(async (tx) => {
    await store.deleteExpiredExternalSignUps(tx, now);
    await store.insertExternalSignUp(tx, { ...row, ticketHash: hashSecret(ticket), created: now, expiresAt: now + lifetimeMs });
  });
  return ticket;
}

export function createEmailStep(deps: EmailStepDeps) {
  const { db, clock, config, links } = deps;

  async function mailLink(email: string, token: string, provider: string, subject: string, how: string) {
    const site = config.THEME_SITENAME;
    await deps.queueMail({
      to: email,
      subject: `${site}: confirm your e-mail address`,
      body: `Someone (we hope you) signed in to ${site} with ${sourceTitle(config, provider)} ${how}.\n\nTo confirm it and finish signing in, open this link within 24 hours (it works once, in the browser you signed in from):\n${links.html(EMAIL_STEP_PATH, { token })}\n\nIf it was not you, ignore this message: nothing is made without the link.\n`,
      topic: `external-sign-up:${provider}:${subject}`,
    });
    await deps.deliverSoon();
  }

  return {
    /**
     * A provider's address it does not vouch for: the link goes to it at once (counted per address
     * and client like every account mail); answers the secret of the ticket cookie it is bound to.
     */
    async mailNow(provider: string, subject: string, fullName: string, email: string, context: { next: string; address: string | null }): Promise<string> {
      const refusal = await deps.sessions.reserveAccountMail(email, context.address);
      if (refusal) throw refusal;
      const token = newSecret();
      const ticket = await keepExternalSignUp(
        deps,
        { mailHash: hashSecret(token), provider, subject, fullName, orcid: null, email, next: context.next, purpose: "sign-up" },
        EMAIL_LINK_MS,
      );
      await mailLink(email, token, provider, subject, "(which gave this e-mail address)");
      return ticket;
    },

    /** Keeps what the provider proved and answers the secret of the ticket cookie that carries it. */
    start: (provider: string, subject: string, fullName: string, orcid: string | null, next: string): Promise<string> =>
      keepExternalSignUp(deps, { mailHash: null, provider, subject, fullName, orcid, email: null, next, purpose: "sign-up" }, EMAIL_STEP_MS),

    /** 400 unless the ticket is a live sign-up at `provider` still waiting for its address. */
    async check(provider: string, ticket: string | null): Promise<{ fullName: string }> {
      const row = ticket ? await store.findExternalSignUp(db, hashSecret(ticket), provider, clock.now()) : null;
      if (!row) throw noTicket();
      return { fullName: row.fullName };
    },

    /** The address given: the link goes to it (counted per address and client like every account mail). */
    async sendLink(provider: string, ticket: string | null, email: string, address: string | null): Promise<{ email: string }> {
      const trimmed = email.trim();
      if (!EMAIL_PATTERN.test(trimmed)) throw validationError([{ field: "email", messages: ["Not a valid e-mail address."] }]);
      const row = ticket ? await store.findExternalSignUp(db, hashSecret(ticket), provider, clock.now()) : null;
      if (!row) throw noTicket();
      const refusal = await deps.sessions.reserveAccountMail(trimmed, address);
      if (refusal) throw refusal;
      const token = newSecret();
      const now = clock.now();
      if (!(await store.setExternalSignUpMail(db, row.ticketHash, trimmed, hashSecret(token), now + EMAIL_LINK_MS, now))) throw noTicket();
      await mailLink(trimmed, token, provider, row.subject, "and gave this e-mail address");
      return { email: trimmed };
    },

    /** 410 unless the mailed link still works (its page shows the button). */
    async checkLink(token: string): Promise<{ email: string }> {
      const row = await store.findExternalSignUpByMail(db, hashSecret(token), clock.now());
      if (!row?.email) throw goneLink();
      return { email: row.email };
    },

    /**
     * Uses the mailed link: the account of the address (linked: the link proved its mailbox) or a
     * new confirmed one, the identity recorded; answers the user to sign in and where to land.
     */
    async confirm(token: string, ticket: string | null): Promise<{ userId: number; next: string; provider: string }> {
      // The link must be opened where the provider sign-in happened: whoever received the mail
      // (the address's owner) cannot link someone else's provider identity to their account by
      // opening it, and whoever signed in cannot without the mail.
      const found = await store.findExternalSignUpByMail(db, hashSecret(token), clock.now());
      if (found?.email && (!ticket || hashSecret(ticket) !== found.ticketHash)) {
        throw new HttpError(403, "Open this link in the browser you signed in from with your provider (the link works only there), or sign in with your provider again.");
      }
      const row = await store.takeExternalSignUpByMail(db, hashSecret(token), clock.now());
      if (!row?.email) throw goneLink();
      const now = clock.now();
      const known = await store.findIdentity(db, row.provider, row.subject);
      if (known) return { userId: known.userId, next: row.next, provider: row.provider };
      const existing = await deps.users.findUserByEmail(systemActor, row.email);
      // An unconfirmed account of the address may be a squatter's who knows its password: not linked.
      if (existing && existing.confirmedAt === null) {
        throw new HttpError(
          409,
          `The account of ${row.email} was never confirmed. Set its password at /lost-password first (that confirms it), then sign in with your provider again.`,
        );
      }
      // A new account, as by sign-up: only for the institution's addresses when ACCOUNTS_REGISTER_ALLOWED_DOMAINS says so
      // (judged once the mailbox is proved, so the form tells nobody which outside addresses have accounts).
      const outside = existing ? null : allowedDomainError(row.email, config.ACCOUNTS_REGISTER_ALLOWED_DOMAINS);
      if (outside) throw new HttpError(403, `No account can be made here for ${row.email}: ${outside}`);
      const userId = existing
        ? existing.id
        : (await deps.users.registerUser({ email: row.email, fullName: row.fullName || undefined, orcid: row.orcid ?? undefined, confirmed: true })).id;
      await store.insertIdentity(db, { provider: row.provider, subject: row.subject, userId, email: row.email, created: now, lastSignIn: now });
      return { userId, next: row.next, provider: row.provider };
    },
  };
}
