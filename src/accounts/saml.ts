// Signing in through a SAML 2.0 IdP (SAML_IDPS): the Web Browser SSO profile, SP-initiated, an
// AuthnRequest by HTTP-Redirect (signed with Cairn's key) and the Response by HTTP-POST to the ACS.
// XML security — the signature over the assertion or the response from the IdP's certificate, one
// assertion only, signature wrapping refused, Audience — is @node-saml/node-saml's (passport-saml's
// core, maintained, on xml-crypto): XML signatures are never hand-written here. Cairn adds what
// node-saml leaves to the caller or judges by the system clock (saml-checks.ts), the request taken
// once by the browser that sent it, and the assertion ID accepted once.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { generateServiceProviderMetadata, SAML, ValidateInResponseTo, type Profile } from "@node-saml/node-saml";
import type { Actor } from "../core/actor";
import { badRequest, HttpError, notFound, unauthorized } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import type { SamlIdpConfig } from "../core/saml-idps";
import { createExternalSignIn, sourceRefused, type ExternalDeps, type ExternalOutcome, type ExternalPerson, type ExternalSource } from "./external";
import { LINKED_ACCOUNTS_PATH, type LinkedAccounts, type Returning } from "./links";
import { checkSamlResponse } from "./saml-checks";
import { ensureSpKeys, MetadataError, parseIdpMetadata, type IdpMetadata, type SpKeys } from "./saml-metadata";
import * as store from "./saml-store";

/** How long a person has at the IdP before the sign-in must start again. */
export const SAML_REQUEST_MS = 10 * 60_000;
/** How long the ACS's one-use code takes the browser back to Cairn. */
const CODE_MS = 2 * 60_000;
/** Seconds an IdP may take to answer for its metadata. */
const METADATA_TIMEOUT_MS = 10_000;
/** A SAMLResponse larger than this is no sign-in (a response is a few kB; a big entitlement list some tens). */
const MAX_RESPONSE_CHARS = 512 * 1024;
const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";

export interface SamlDeps extends ExternalDeps {
  linkedAccounts: Pick<LinkedAccounts, "finishLink">;
  log?: (message: string) => void;
}

/**
 * What coming back from the IdP leads to: a session, or (external.ts) a pending link or a mailed
 * link first; or, for a link started from the settings, the identity linked to the person who started it.
 */
export type SamlOutcome = { kind: "session"; secret: string; next: string } | { kind: "linked"; provider: string } | Exclude<ExternalOutcome, { kind: "session" }>;
export type SamlService = ReturnType<typeof createSamlService>;

/** The values of an attribute of the (signed) assertion, as strings. */
function valuesOf(profile: Profile, name: string): string[] {
  const value = (profile.attributes as Record<string, unknown> | undefined)?.[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.trim())
    .filter(Boolean);
}

export function createSamlService(deps: SamlDeps) {
  const { db, clock, config } = deps;
  const idps = new Map(config.SAML_IDPS.map((p) => [p.name, p]));
  const external = createExternalSignIn(deps);
  /** IdP metadata: files read now (a failure is logged and answered 502), URLs on first use (dropped when the fetch failed). */
  const metadata = new Map<string, Promise<IdpMetadata>>();
  for (const p of config.SAML_IDPS) {
    if (!p.metadataFile) continue;
    try {
      metadata.set(p.name, Promise.resolve(parseIdpMetadata(readFileSync(p.metadataFile, "utf8"))));
    } catch (err) {
      deps.log?.(`SAML IdP ${p.name}: its metadata file ${p.metadataFile} cannot be used: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  let spKeys: Promise<SpKeys> | null = null;

  const idpOf = (name: string): SamlIdpConfig => {
    const p = idps.get(name);
    if (!p) throw notFound(`There is no SAML sign-in '${name}'.`);
    return p;
  };
  const acsUrl = (p: SamlIdpConfig) => `${config.BASE_URL}/saml/authorized/${p.name}`;
  const entityIdOf = (p: SamlIdpConfig) => p.entityId ?? `${config.BASE_URL}/saml/metadata/${p.name}`;
  const sourceOf = (p: SamlIdpConfig): ExternalSource => ({ key: `saml:${p.name}`, title: p.title, trustEmail: p.trustEmail, syncGroups: p.syncGroups });

  function keys(): Promise<SpKeys> {
    if (!spKeys) {
      spKeys = ensureSpKeys(config.DATA_DIR, new URL(config.BASE_URL).hostname);
      void spKeys.catch(() => (spKeys = null));
    }
    return spKeys;
  }

  async function metadataOf(p: SamlIdpConfig): Promise<IdpMetadata> {
    let found = metadata.get(p.name);
    if (!found && p.metadataUrl) {
      const url = p.metadataUrl;
      found = (async () => {
        const res = await fetch(url, { signal: AbortSignal.timeout(METADATA_TIMEOUT_MS), redirect: "error" });
        if (!res.ok) throw new MetadataError(`${url} answered ${res.status}`);
        return parseIdpMetadata(await res.text());
      })();
      metadata.set(p.name, found);
      void found.catch(() => metadata.delete(p.name));
    }
    try {
      if (!found) throw new MetadataError(`its metadata file ${p.metadataFile} could not be read`);
      return await found;
    } catch (err) {
      const why = err instanceof MetadataError ? err.message : "its metadata did not load";
      throw new HttpError(502, `${p.title} cannot be used at the moment (${why}): try again later, or tell the repository's administrators.`);
    }
  }

  /** node-saml for one IdP: its time and InResponseTo checks are off (Cairn's clock and store do them: saml-checks.ts, saml_requests). */
  const samlOf = (p: SamlIdpConfig, idp: IdpMetadata, sp: SpKeys, requestId?: string) =>
    new SAML({
      callbackUrl: acsUrl(p),
      entryPoint: idp.ssoUrl,
      issuer: entityIdOf(p),
      audience: entityIdOf(p),
      idpCert: idp.certs,
      privateKey: sp.key,
      // Encrypted assertions are read with the same key (Shibboleth encrypts by default, and fails without a key to encrypt to).
      decryptionPvk: sp.key,
      signatureAlgorithm: "sha256",
      digestAlgorithm: "sha256",
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      // Either signature is enough (Shibboleth signs the response by default, ADFS the assertion); the metadata asks for signed assertions.
      wantAssertionsSigned: false,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: -1,
      validateInResponseTo: ValidateInResponseTo.never,
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
    });

  /** What the IdP asserted about the person, in the attribute names of its configuration. */
  function personOf(p: SamlIdpConfig, profile: Profile): ExternalPerson {
    const a = p.attributes;
    const one = (name: string) => valuesOf(profile, name)[0] ?? "";
    // A transient NameID changes at every sign-in: it cannot name an account.
    const nameId = profile.nameIDFormat !== TRANSIENT ? (profile.nameID ?? "") : "";
    const subject = one(a.subject) || nameId;
    if (!subject) throw sourceRefused(p.title, `it gave no stable identifier of the person (${a.subject}, or a persistent NameID)`);
    const scopes = [
      ...new Set(
        valuesOf(profile, a.affiliation)
          .map((v) => v.split("@")[1] ?? "")
          .filter(Boolean),
      ),
    ];
    const groups = (profile.attributes as Record<string, unknown> | undefined)?.[a.groups] === undefined ? null : valuesOf(profile, a.groups);
    return {
      subject: subject.slice(0, 255),
      email: one(a.email) || null,
      // The IdP's mail comes from the institution's directory; whether it is believed is trust_email's.
      emailVerified: true,
      fullName: (one(a.name) || [one(a.givenName), one(a.surname)].filter(Boolean).join(" ")).slice(0, 255),
      affiliation: scopes.join(", ").slice(0, 255),
      groups,
    };
  }

  /** The ACS's one-use code: the request it answers and the person, sealed (AES-256-GCM) with Cairn's key so the browser can neither read nor change them. */
  function seal(sp: SpKeys, payload: object): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", sp.codeKey, iv);
    const body = Buffer.concat([cipher.update(deflateRawSync(JSON.stringify(payload))), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }
  function unseal(sp: SpKeys, code: string): { r: string; i: string; e: number; p: ExternalPerson } | null {
    try {
      const raw = Buffer.from(code, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", sp.codeKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(inflateRawSync(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()])).toString("utf8"));
    } catch {
      return null;
    }
  }

  /**
   * Starts a sign-in: the IdP's URL with a signed AuthnRequest, and the secret of the cookie that
   * binds the sign-in to this browser. The request's ID is kept (ten minutes): a response must name
   * it. `linkUserId`: a signed-in person linking the IdP to their account.
   */
  async function begin(name: string, next: string, linkUserId: number | null): Promise<{ url: string; browserSecret: string }> {
    const p = idpOf(name);
    const [idp, sp] = [await metadataOf(p), await keys()];
    // An xs:ID must not start with a digit.
    const requestId = `_${randomBytes(20).toString("hex")}`;
    const browserSecret = newSecret();
    const now = clock.now();
    await db.write(async (tx) => {
      await store.insertSamlRequest(tx, { requestId, idp: p.name, browserHash: hashSecret(browserSecret), next, linkUserId, created: now, expiresAt: now + SAML_REQUEST_MS });
    });
    const url = await samlOf(p, idp, sp, requestId).getAuthorizeUrlAsync("", undefined, {});
    return { url, browserSecret };
  }

  return {
    /** The configured IdPs, for the buttons on /login. */
    providers: (): { name: string; title: string }[] => config.SAML_IDPS.map((p) => ({ name: p.name, title: p.title })),

    /** Cairn's metadata for one IdP (entity ID, ACS, its certificate for signing and encryption), to register Cairn there. */
    async spMetadata(name: string): Promise<string> {
      const p = idpOf(name);
      const sp = await keys();
      return generateServiceProviderMetadata({
        issuer: entityIdOf(p),
        callbackUrl: acsUrl(p),
        identifierFormat: null,
        wantAssertionsSigned: true,
        privateKey: sp.key,
        publicCerts: sp.cert,
        decryptionPvk: sp.key,
        decryptionCert: sp.cert,
        signatureAlgorithm: "sha256",
        digestAlgorithm: "sha256",
      });
    },

    /** Starts a sign-in (see begin). */
    beginSignIn: (name: string, next: string) => begin(name, next, null),

    /**
     * Starts a sign-in at the IdP to link it to the signed-in person's account (the pages ask for it
     * with the session's CSRF token): the request records the user, and only that user, still signed
     * in in the browser that started it, gets the identity linked on the way back.
     */
    beginLink(actor: Actor, name: string): Promise<{ url: string; browserSecret: string }> {
      if (actor.kind !== "user") throw unauthorized("Sign in to link another account to yours.");
      return begin(name, LINKED_ACCOUNTS_PATH, actor.userId);
    },

    /**
     * The ACS: the IdP's response, posted by the browser (cross-site, so without Cairn's cookies).
     * Every check but the browser's is made here; the answer is a one-use code for
     * finishSignIn, which the browser brings back by a top-level GET that does carry the cookie.
     */
    async acceptResponse(name: string, samlResponse: string | null): Promise<{ code: string }> {
      const p = idpOf(name);
      const [idp, sp] = [await metadataOf(p), await keys()];
      const refuse = (why: string): never => {
        throw sourceRefused(p.title, why);
      };
      if (!samlResponse || samlResponse.length > MAX_RESPONSE_CHARS || !/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) refuse("its answer is not a SAMLResponse");
      let profile: Profile | null = null;
      try {
        ({ profile } = await samlOf(p, idp, sp).validatePostResponseAsync({ SAMLResponse: samlResponse! }));
      } catch (err) {
        refuse(`its response did not pass the checks (${err instanceof Error ? err.message.split("\n")[0] : String(err)})`);
      }
      if (!profile) refuse("its response holds no assertion");
      const now = clock.now();
      let checked;
      try {
        checked = checkSamlResponse(profile!.getSamlResponseXml!(), profile!.getAssertionXml!(), { acsUrl: acsUrl(p), idpEntityId: idp.entityId, now }, refuse);
      } catch (err) {
        if (err instanceof HttpError) throw err;
        refuse(`its response could not be read (${err instanceof Error ? err.message : String(err)})`);
      }
      const { requestId, assertionId, expiresAt } = checked!;
      if (!(await store.findSamlRequest(db, requestId, p.name, now))) refuse("it answers no sign-in started here, or one that was finished already or took too long");
      const person = personOf(p, profile!);
      if (!(await store.recordAssertion(db, p.name, assertionId, expiresAt))) refuse("its assertion was used before");
      return { code: seal(sp, { r: requestId, i: p.name, e: now + CODE_MS, p: person }) };
    },

    /**
     * The browser back from the ACS with its code: the request is taken (one use) only by the browser
     * that sent it; the person's account found, linked or made, and a new session (or what external.ts
     * asks for first). A link started from the settings links the identity to the person who started
     * it instead, refused unless they are still the one signed in (`returning.userId`) in this browser.
     * `returning.address`: the client's, which account mail is counted by.
     */
    async finishSignIn(name: string, code: string, browserSecret: string | null, returning: Returning): Promise<SamlOutcome> {
      const p = idpOf(name);
      const sealed = code ? unseal(await keys(), code) : null;
      const now = clock.now();
      if (!sealed || sealed.i !== p.name || sealed.e <= now) throw badRequest("This sign-in link is not valid or took too long. Start again from the sign-in page.");
      const request = browserSecret ? await store.takeSamlRequest(db, sealed.r, p.name, hashSecret(browserSecret), now) : null;
      if (!request) throw badRequest("This sign-in was started in another browser, was finished already or took too long. Start again from the sign-in page.");
      if (request.linkUserId !== null) return await deps.linkedAccounts.finishLink(request.linkUserId, returning.userId, sourceOf(p), sealed.p);
      const done = await external.signIn(sourceOf(p), sealed.p, { next: request.next, address: returning.address, client: returning.client });
      return done.kind === "session" ? { kind: "session", secret: done.secret, next: request.next } : done;
    },

    /** The daily clean-up of requests nobody came back from and of replay records past their assertion's expiry. */
    deleteExpired: async (): Promise<number> => await store.deleteExpiredSaml(db, clock.now()),
  };
}
