// Signing in through an OpenID Connect provider (OIDC_PROVIDERS): the authorization code flow with
// PKCE (S256), state and nonce, the pending sign-in kept server-side and taken once, the ID token
// checked by openid-client (signature against the issuer's JWKS, iss, aud, exp/iat, nonce), then
// the provider's subject mapped to an account: known, linked by a trusted e-mail, or new.
import * as client from "openid-client";
import type { Actor } from "../core/actor";
import { badRequest, HttpError, notFound, unauthorized } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import type { OidcProviderConfig } from "../core/oidc-providers";
import type { SessionsService, SignInClient } from "../sessions/service";
import type { UsersService } from "../users/service";
import { createExternalSignIn, sourceRefused, type ExternalDeps, type ExternalPerson, type ExternalSource, type SignInContext } from "./external";
import { checkSameLinker, LINKED_ACCOUNTS_PATH, type LinkedAccounts, type Returning } from "./links";
import { createEmailStep } from "./oidc-email";
import * as store from "./oidc-store";

export { LINKED_ACCOUNTS_PATH, type Returning } from "./links";

/** How long a person has at the provider before the sign-in must start again. */
export const PENDING_SIGN_IN_MS = 10 * 60_000;
/** Seconds a provider may take to answer discovery, the token request or userinfo. */
const PROVIDER_TIMEOUT_S = 10;

export interface OidcDeps extends ExternalDeps {
  users: Pick<UsersService, "registerUser" | "findUserByEmail" | "findUserById">;
  sessions: Pick<SessionsService, "openSession" | "reserveAccountMail">;
  /** Queues a message in the outbox. */
  queueMail(mail: { to: string; subject: string; body: string; topic: string }): Promise<unknown>;
  /** Asks for the outbox to be delivered now rather than at the next minute. */
  deliverSoon(): Promise<void>;
  linkedAccounts: Pick<LinkedAccounts, "finishLink">;
}

/**
 * What coming back from the provider leads to: a session; the e-mail step (no e-mail from the
 * provider); the identity linked to the signed-in person who asked for it; a pending link waiting
 * for the password of the account that has the provider's address; or a link mailed to a new
 * address the provider does not vouch for.
 */
export type SignInOutcome =
  | { kind: "session"; secret: string; next: string }
  | { kind: "ask-email"; ticket: string }
  | { kind: "linked"; provider: string }
  | { kind: "link-first"; ticket: string; email: string }
  | { kind: "check-mail"; ticket: string; email: string };

/** The person's name: the configured claim, else given_name and family_name (ORCID's); at most 255 characters. */
function nameOf(info: Record<string, unknown>, claim: string): string {
  const named = info[claim];
  const name = typeof named === "string" ? named : [info.given_name, info.family_name].filter((v) => typeof v === "string" && v).join(" ");
  return name.trim().slice(0, 255);
}

const ORCID_ID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

export type OidcService = ReturnType<typeof createOidcService>;

/** True for a provider that cannot be reached (connection refused, timeout), as opposed to one whose answer is wrong. */
const isUnreachable = (err: unknown) => err instanceof TypeError || (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError"));

export function createOidcService(deps: OidcDeps) {
  const { db, clock, config } = deps;
  const providers = new Map(config.OIDC_PROVIDERS.map((p) => [p.name, p]));
  /** Discovery documents, fetched once per provider (dropped when fetching failed, so a later sign-in tries again). */
  const discovered = new Map<string, Promise<client.ServerMetadata>>();
  const jwksCaches = new Map<string, client.ExportedJWKSCache>();
  const emailStep = createEmailStep(deps);
  const external = createExternalSignIn(deps);

  const providerOf = (name: string): OidcProviderConfig => {
    const p = providers.get(name);
    if (!p) throw notFound(`There is no sign-in provider '${name}'.`);
    return p;
  };
  const redirectUri = (p: OidcProviderConfig) => `${config.BASE_URL}/oauth/authorized/${p.name}`;
  // parseOidcProviders allows http:// only for a loopback issuer (a provider on this machine).
  const insecure = (p: OidcProviderConfig) => p.issuer.startsWith("http:");

  async function serverMetadata(p: OidcProviderConfig): Promise<client.ServerMetadata> {
    let found = discovered.get(p.name);
    if (!found) {
      const options: client.DiscoveryRequestOptions = { timeout: PROVIDER_TIMEOUT_S, ...(insecure(p) ? { execute: [client.allowInsecureRequests] } : {}) };
      found = client.discovery(new URL(p.issuer), p.clientId, undefined, client.None(), options).then((c) => c.serverMetadata());
      discovered.set(p.name, found);
      void found.catch(() => discovered.delete(p.name));
    }
    try {
      return await found;
    } catch {
      throw new HttpError(
        502,
        `${p.title} cannot be reached at the moment (its discovery document at ${p.issuer}/.well-known/openid-configuration did not load): try again later.`,
      );
    }
  }

  /**
   * The client of one exchange, checking ID token signatures. Its clock is the app's (clockSkew: the app's now less the system's),
   * so the ID token's exp/iat are judged by the same "now" as everything else.
   */
  function configurationOf(p: OidcProviderConfig, server: client.ServerMetadata): client.Configuration {
    const methods = server.token_endpoint_auth_methods_supported;
    const auth = !p.clientSecret
      ? client.None()
      : methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
        ? client.ClientSecretPost(p.clientSecret)
        : client.ClientSecretBasic(p.clientSecret);
    const metadata: Partial<client.ClientMetadata> = { [client.clockSkew]: Math.round((clock.now() - Date.now()) / 1000) };
    const c = new client.Configuration(server, p.clientId, metadata, auth);
    c.timeout = PROVIDER_TIMEOUT_S;
    if (insecure(p)) client.allowInsecureRequests(c);
    // openid-client skips the ID token's signature when it comes straight from the token endpoint
    // over TLS (OIDC Core 3.1.3.7 allows it); Cairn checks it against the issuer's JWKS all the
    // same: a proxy or a mis-set TLS setup must not be enough to sign anyone in.
    client.enableNonRepudiationChecks(c);
    const jwks = jwksCaches.get(p.name);
    if (jwks) client.setJwksCache(c, jwks);
    return c;
  }

  /** The token exchange and the ID token's checks; every failure a 4xx (502 when the provider cannot be reached). */
  async function exchange(p: OidcProviderConfig, c: client.Configuration, query: URLSearchParams, pending: store.PendingSignInRow, state: string) {
    const currentUrl = new URL(redirectUri(p));
    currentUrl.search = query.toString();
    try {
      const tokens = await client.authorizationCodeGrant(c, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      let info: Record<string, unknown> = { ...claims };
      if ((info[p.claims.email] === undefined || info[p.claims.name] === undefined) && tokens.access_token && c.serverMetadata().userinfo_endpoint) {
        // The ID token's (signed) claims win over userinfo's; userinfo must be about the same subject.
        info = { ...(await client.fetchUserInfo(c, tokens.access_token, claims.sub)), ...claims };
      }
      return { subject: claims.sub, info };
    } catch (err) {
      if (isUnreachable(err)) throw new HttpError(502, `${p.title} cannot be reached at the moment: try again later.`);
      if (err instanceof client.AuthorizationResponseError || err instanceof client.ResponseBodyError) throw sourceRefused(p.title, `it answered ${err.error}`);
      // Whatever else the library refused (the ID token's checks, a malformed answer, userinfo
      // about another subject) came from the provider: a 400 naming the check, never a 500.
      const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : "";
      throw sourceRefused(p.title, `its answer did not pass the checks: ${err instanceof Error ? err.message : String(err)}${cause}`);
    } finally {
      const jwks = client.getJwksCache(c);
      if (jwks) jwksCaches.set(p.name, jwks);
    }
  }

  /** What the provider proved about the person, in the claims the provider's configuration names. */
  function personOf(p: OidcProviderConfig, subject: string, info: Record<string, unknown>): ExternalPerson {
    const text = (claim: string) => (typeof info[claim] === "string" ? (info[claim] as string).trim() : "");
    const groups = info[p.claims.groups];
    return {
      subject,
      email: text(p.claims.email) || null,
      emailVerified: info.email_verified === true || info.email_verified === "true",
      fullName: nameOf(info, p.claims.name),
      affiliation: text(p.claims.affiliation).slice(0, 255),
      groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === "string") : typeof groups === "string" ? [groups] : null,
    };
  }
  const sourceOf = (p: OidcProviderConfig): ExternalSource => ({ key: p.name, title: p.title, trustEmail: p.trustEmail, syncGroups: p.syncGroups });

  /**
   * Starts a sign-in: the provider's authorization URL, and the secret of the cookie that binds
   * the sign-in to this browser (so nobody can finish their own sign-in in someone else's browser);
   * `linkUserId`: a signed-in person linking the provider to their account.
   */
  async function begin(name: string, next: string, linkUserId: number | null): Promise<{ url: string; browserSecret: string }> {
    const p = providerOf(name);
    const c = configurationOf(p, await serverMetadata(p));
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const browserSecret = newSecret();
    const now = clock.now();
    await db.write(async (tx) => {
      await store.deleteExpiredPendingSignIns(tx, now);
      await store.insertPendingSignIn(tx, {
        stateHash: hashSecret(state),
        provider: p.name,
        browserHash: hashSecret(browserSecret),
        nonce,
        codeVerifier,
        next,
        created: now,
        expiresAt: now + PENDING_SIGN_IN_MS,
        linkUserId,
      });
    });
    const url = client.buildAuthorizationUrl(c, {
      redirect_uri: redirectUri(p),
      scope: p.scopes.join(" "),
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
    });
    return { url: url.href, browserSecret };
  }

  return {
    /** The configured providers, for the buttons on /login. */
    providers: (): { name: string; title: string }[] => config.OIDC_PROVIDERS.map((p) => ({ name: p.name, title: p.title })),

    /** Starts a sign-in (see begin). */
    beginSignIn: (name: string, next: string) => begin(name, next, null),

    /**
     * Starts a sign-in at the provider to link it to the signed-in person's account (the pages ask
     * for it by a POST carrying the session's CSRF token): the pending sign-in records the user, and
     * only that user, still signed in in this browser, gets the identity linked on the way back.
     */
    beginLink(actor: Actor, name: string): Promise<{ url: string; browserSecret: string }> {
      if (actor.kind !== "user") throw unauthorized("Sign in to link another account to yours.");
      return begin(name, LINKED_ACCOUNTS_PATH, actor.userId);
    },

    /**
     * The provider sent the person back (`query`: code, state…): the pending sign-in is taken (one
     * use), the code exchanged and the ID token checked, the account found or made; a new session.
     * A link started by a signed-in person links the identity to them instead, refused unless the
     * same person is still the one signed in in this browser.
     */
    async finishSignIn(name: string, query: URLSearchParams, browserSecret: string | null, returning: Returning): Promise<SignInOutcome> {
      const p = providerOf(name);
      const state = query.get("state") ?? "";
      const pending = state ? await store.takePendingSignIn(db, hashSecret(state), p.name, clock.now()) : null;
      if (!pending) throw badRequest("This sign-in is unknown, was finished already or took too long. Start again from the sign-in page.");
      if (!browserSecret || hashSecret(browserSecret) !== pending.browserHash) {
        throw badRequest("This sign-in was started in another browser (or its cookie is gone). Start again from the sign-in page.");
      }
      // Checked before the provider is asked anything too (finishLink checks it again, as for every source).
      if (pending.linkUserId !== null) checkSameLinker(pending.linkUserId, returning.userId, p.title);
      const c = configurationOf(p, await serverMetadata(p));
      const { subject, info } = await exchange(p, c, query, pending, state);
      if (pending.linkUserId !== null) return await deps.linkedAccounts.finishLink(pending.linkUserId, returning.userId, sourceOf(p), personOf(p, subject, info));
      if (p.type === "orcid" && !(await store.findIdentity(db, p.name, subject))) {
        // ORCID gives no e-mail address: the person gives one and proves it first.
        const ticket = await emailStep.start(p.name, subject, nameOf(info, p.claims.name), ORCID_ID.test(subject) ? subject : null, pending.next);
        return { kind: "ask-email", ticket };
      }
      const context: SignInContext = { next: pending.next, address: returning.address, client: returning.client };
      const done = await external.signIn(sourceOf(p), personOf(p, subject, info), context);
      return done.kind === "session" ? { kind: "session", secret: done.secret, next: pending.next } : done;
    },

    /** The e-mail step's form: 400 unless this browser's ticket is a sign-up waiting for its address. */
    checkEmailStep: (name: string, ticket: string | null) => emailStep.check(providerOf(name).name, ticket),
    /** The address given on the e-mail step: a one-use link goes to it. */
    sendEmailStepLink: (name: string, ticket: string | null, email: string, address: string | null) => emailStep.sendLink(providerOf(name).name, ticket, email, address),
    /** 410 unless the mailed link still works. */
    checkEmailStepLink: (token: string) => emailStep.checkLink(token),
    /** The mailed link used: the account made or linked, and a new session. */
    async confirmEmailStep(token: string, ticket: string | null, client?: SignInClient): Promise<{ secret: string; next: string }> {
      const { userId, next, provider } = await emailStep.confirm(token, ticket);
      return { ...(await external.sessionFor(userId, { key: provider }, { address: client?.address ?? null, client })), next };
    },

    /** The daily clean-up of sign-ins nobody came back from, and of e-mail steps nobody finished. */
    async deleteExpiredPending(): Promise<number> {
      const now = clock.now();
      return (await store.deleteExpiredPendingSignIns(db, now)) + (await store.deleteExpiredExternalSignUps(db, now));
    },
  };
}
