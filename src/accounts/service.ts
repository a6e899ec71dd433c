// How people make and keep their own accounts: sign-up (when the repository opens it), the e-mail
// confirmation, a forgotten password reset by mail, and a new e-mail address confirmed from itself.
// Every mailed link is one-use, short-lived and stored hashed; every request that mails an address
// is counted per address and per client (the sessions' throttle), and answers alike whether or not
// the address has an account, so nobody learns who has one.
import { systemActor, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { HttpError, notFound, unauthorized, validationError, type FieldError } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import type { Db } from "../db/port";
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from "../users/model";
import type { UsersService } from "../users/service";
import type { SessionsService } from "../sessions/service";
import { TOKEN_LIFETIME_MS, TOKEN_PATHS, type SignUpInput, type TokenPurpose } from "./model";
import { allowedDomainError } from "./policy";
import * as store from "./store";

export interface AccountsDeps extends Deps {
  users: Pick<UsersService, "registerUser" | "findUserByEmail" | "findUserById" | "confirmUser" | "changeEmail">;
  sessions: Pick<SessionsService, "resetPassword" | "reserveAccountMail">;
  /** Queues a message in the outbox (after the change it reports has committed). */
  queueMail(mail: { to: string; subject: string; body: string; topic: string }): Promise<unknown>;
  /** Asks for the outbox to be delivered now rather than at the next minute. */
  deliverSoon(): Promise<void>;
}

/** One answer for a wrong, used, replaced or expired link: a guess learns nothing. */
const invalidLink = () => new HttpError(410, "This link no longer works: it was used already, it expired, or a newer one replaced it.");

/** What the sign-up and lost-password forms answer, account or not. */
export interface MailedAnswer {
  email: string;
}

export type AccountsService = ReturnType<typeof createAccountsService>;

export function createAccountsService(deps: AccountsDeps) {
  const { db, clock, config, links } = deps;
  const site = config.THEME_SITENAME;

  /** A new link of `purpose` to `email` (older unused ones of the user end), then its mail. */
  async function mailLink(userId: number, purpose: TokenPurpose, email: string, subject: string, body: (link: string) => string) {
    const send = await db.write((tx) => issueLink(tx, userId, purpose, email, subject, body));
    await send();
  }

  /** Inside `tx`: a new link of `purpose` (older unused ones end); answers the sending of its mail, for after the commit. */
  async function issueLink(tx: Db, userId: number, purpose: TokenPurpose, email: string, subject: string, body: (link: string) => string) {
    const token = newSecret();
    const now = clock.now();
    await store.deleteUnusedTokens(tx, userId, purpose);
    await store.insertToken(tx, { tokenHash: hashSecret(token), userId, purpose, email, created: now, expiresAt: now + TOKEN_LIFETIME_MS[purpose], usedAt: null });
    return () => mail(email, subject, body(links.html(TOKEN_PATHS[purpose], { token })), `account:${userId}:${purpose}`);
  }

  const resetMailBody = (link: string) =>
    `Someone (we hope you) asked to set a new password for your account at ${site}.\n\nTo choose one, open this link within an hour (it works once):\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.\n`;

  async function mail(to: string, subject: string, body: string, topic: string) {
    await deps.queueMail({ to, subject: `${site}: ${subject}`, body, topic });
    await deps.deliverSoon();
  }

  /** 429 (with Retry-After) while the address or the client has asked for too much mail lately. */
  async function reserveMail(email: string, address: string | null) {
    const refusal = await deps.sessions.reserveAccountMail(email, address);
    if (refusal) throw refusal;
  }

  const hours = (purpose: TokenPurpose) => TOKEN_LIFETIME_MS[purpose] / 3_600_000;

  async function mailConfirmation(user: { id: number; email: string }) {
    await mailLink(
      user.id,
      "confirm-email",
      user.email,
      "confirm your e-mail address",
      (link) =>
        `Someone (we hope you) made an account at ${site} with this e-mail address.\n\nTo confirm it, open this link within ${hours("confirm-email")} hours:\n${link}\n\nIf it was not you, ignore this message: the account cannot be used without the link.\n`,
    );
  }

  /** The checks that do not depend on whether the address has an account (so answering them tells nothing). */
  function signUpErrors(input: SignUpInput): FieldError[] {
    const errors: FieldError[] = [];
    const email = input.email?.trim() ?? "";
    if (!EMAIL_PATTERN.test(email)) errors.push({ field: "email", messages: ["Not a valid e-mail address."] });
    else {
      const domainError = allowedDomainError(email, config.ACCOUNTS_REGISTER_ALLOWED_DOMAINS);
      if (domainError) errors.push({ field: "email", messages: [domainError] });
    }
    if ((input.password ?? "").length < MIN_PASSWORD_LENGTH) errors.push({ field: "password", messages: [`A password has at least ${MIN_PASSWORD_LENGTH} characters.`] });
    if ((input.fullName ?? "").length > 255) errors.push({ field: "full_name", messages: ["At most 255 characters."] });
    return errors;
  }

  /**
   * Whether /signup is open: ACCOUNTS_REGISTERABLE, and local passwords sign people in (with
   * ACCOUNTS_LOCAL_LOGIN_ENABLED off a new local account could never sign in).
   */
  const registerable = () => config.ACCOUNTS_REGISTERABLE && config.ACCOUNTS_LOCAL_LOGIN_ENABLED;

  return {
    registerable,

    /**
     * Makes an account (404 while sign-up is closed). With ACCOUNTS_CONFIRM_EMAIL it cannot sign in
     * until its address is confirmed by the mailed link. An address that has an account already
     * gets a note instead, and the answer is the same, so the form cannot tell who has one.
     */
    async signUp(input: SignUpInput, address: string | null): Promise<MailedAnswer & { confirmed: boolean }> {
      if (!registerable()) throw notFound("Sign-up is closed: accounts are made by the repository's administrators.");
      const errors = signUpErrors(input);
      if (errors.length) throw validationError(errors);
      const email = input.email.trim();
      await reserveMail(email, address);
      const confirmed = !config.ACCOUNTS_CONFIRM_EMAIL;
      const existing = await deps.users.findUserByEmail(systemActor, email);
      if (existing) {
        await mail(
          existing.email,
          "someone tried to sign up with your address",
          `Someone (perhaps you) tried to make an account at ${site} with this e-mail address, which has one already.\n\nTo sign in, use your password, or set a new one at:\n${links.html("/lost-password")}\n\nIf it was not you, ignore this message.\n`,
          `account:${existing.id}:sign-up-again`,
        );
        return { email, confirmed };
      }
      const user = await deps.users.registerUser({ email, password: input.password, fullName: input.fullName, confirmed });
      if (!confirmed) await mailConfirmation(user);
      return { email, confirmed };
    },

    /** Confirms the address the link was sent to (410 for a link that no longer works). */
    async confirmEmail(token: string): Promise<{ userId: number }> {
      const row = await store.useToken(db, hashSecret(token), "confirm-email", clock.now());
      const user = row && (await deps.users.findUserById(row.userId));
      // The account's address changed since the link was sent: the link proves the old one.
      if (!row || !user || user.email.toLowerCase() !== row.email.toLowerCase()) throw invalidLink();
      await deps.users.confirmUser(user.id);
      return { userId: user.id };
    },

    /** A new confirmation link for an unconfirmed account; the same answer for any other address. */
    async resendConfirmation(email: string, address: string | null): Promise<MailedAnswer> {
      const trimmed = email.trim();
      if (!EMAIL_PATTERN.test(trimmed)) throw validationError([{ field: "email", messages: ["Not a valid e-mail address."] }]);
      await reserveMail(trimmed, address);
      const user = await deps.users.findUserByEmail(systemActor, trimmed);
      if (user?.active && user.confirmedAt === null) await mailConfirmation(user);
      return { email: trimmed };
    },

    /** A password-reset link (one use, an hour) to an active account's address; the same answer for any other address. */
    async requestPasswordReset(email: string, address: string | null): Promise<MailedAnswer> {
      const trimmed = email.trim();
      if (!EMAIL_PATTERN.test(trimmed)) throw validationError([{ field: "email", messages: ["Not a valid e-mail address."] }]);
      await reserveMail(trimmed, address);
      const user = await deps.users.findUserByEmail(systemActor, trimmed);
      if (user?.active) {
        await mailLink(user.id, "reset-password", user.email, "set a new password", resetMailBody);
      }
      return { email: trimmed };
    },

    /**
     * An administrator's "send a password-reset link" (users/admin.ts, which checks the role and the
     * account): the same link and mail as /lost-password's, the link written in the caller's
     * transaction (`tx`) and the mail handed to `afterCommit`. No throttle: administrators are trusted.
     */
    async issuePasswordReset(tx: Db, user: { id: number; email: string }, afterCommit: (work: () => Promise<void>) => void): Promise<void> {
      afterCommit(await issueLink(tx, user.id, "reset-password", user.email, "set a new password", resetMailBody));
    },

    /** 410 unless `token` is a password-reset link that still works (the form is shown only then). */
    async checkResetLink(token: string): Promise<void> {
      if (!(await store.findLiveToken(db, hashSecret(token), "reset-password", clock.now()))) throw invalidLink();
    },

    /**
     * Sets the new password through a reset link, which it uses up: every session of the account
     * ends, and the address is confirmed (the link reached it).
     */
    async resetPassword(token: string, password: string): Promise<{ userId: number }> {
      if (password.length < MIN_PASSWORD_LENGTH) throw validationError([{ field: "password", messages: [`A password has at least ${MIN_PASSWORD_LENGTH} characters.`] }]);
      const row = await store.useToken(db, hashSecret(token), "reset-password", clock.now());
      const user = row && (await deps.users.findUserById(row.userId));
      if (!row || !user || user.email.toLowerCase() !== row.email.toLowerCase()) throw invalidLink();
      await deps.sessions.resetPassword(user.id, password);
      await deps.users.confirmUser(user.id);
      return { userId: user.id };
    },

    /**
     * A signed-in person asks for a new e-mail address: a link goes to it, and the address changes
     * only when it is opened; the old address is told.
     */
    async requestEmailChange(actor: Actor, email: string, address: string | null): Promise<MailedAnswer> {
      const user = actor.kind === "user" ? await deps.users.findUserById(actor.userId) : null;
      if (!user) throw unauthorized("Sign in to change your e-mail address.");
      const trimmed = email.trim();
      if (!EMAIL_PATTERN.test(trimmed)) throw validationError([{ field: "email", messages: ["Not a valid e-mail address."] }]);
      if (trimmed.toLowerCase() === user.email.toLowerCase()) return { email: trimmed };
      const holder = await deps.users.findUserByEmail(systemActor, trimmed);
      if (holder) throw validationError([{ field: "email", messages: ["This e-mail address is already registered."] }]);
      await reserveMail(trimmed, address);
      await mailLink(
        user.id,
        "change-email",
        trimmed,
        "confirm your new e-mail address",
        (link) =>
          `Someone (we hope you) asked to use this address for their account at ${site}.\n\nTo confirm it, open this link within ${hours("change-email")} hours:\n${link}\n\nUntil then the account keeps its old address. If it was not you, ignore this message.\n`,
      );
      await mail(
        user.email,
        "a new e-mail address was asked for",
        `Someone signed in to your account at ${site} asked to change its e-mail address to ${trimmed}. It changes only once that address confirms it.\n\nIf it was not you, change your password at ${links.html("/account/settings/password")}.\n`,
        `account:${user.id}:change-email-notice`,
      );
      return { email: trimmed };
    },

    /** Makes the address the link was sent to the account's (410 for a link that no longer works). */
    async confirmEmailChange(token: string): Promise<{ userId: number; email: string }> {
      const row = await store.useToken(db, hashSecret(token), "change-email", clock.now());
      if (!row) throw invalidLink();
      await deps.users.changeEmail(row.userId, row.email);
      return { userId: row.userId, email: row.email };
    },

    /** The daily clean-up of expired links. */
    deleteExpiredLinks: () => store.deleteExpiredTokens(db, clock.now()),
  };
}
