// A SAML 2.0 IdP for the tests: samlify (an independent implementation) in the IdP role, with its
// own RSA key pair and certificate, its metadata served on 127.0.0.1 and written to a temporary
// file. It parses Cairn's AuthnRequests (checking their signature against Cairn's SP metadata) and
// makes responses whose times follow the test's ManualClock; variants make the bad ones (unsigned,
// signed with another key, expired, for another audience or address or request) and `wrap` makes a
// signature-wrapping attack out of a genuinely signed response by editing its XML.
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import type { ManualClock } from "../../src/core/time";

// samlify's typings pull TypeScript's DOM library (through @xmldom/xmldom's) into the whole
// project, where it clashes with Bun's types: it is loaded untyped.
const samlify = require("samlify") as any;
// samlify refuses to work until a schema validator is set; this IdP trusts its own XML, and what
// Cairn sends is checked by samlify's parser and signature check.
samlify.setSchemaValidator({ validate: async () => "skipped" });

const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";

/** The attributes a person's assertion carries (Name -> values). */
export type Attributes = Record<string, string[]>;

/** What a response may get wrong (anything not given is right). */
export interface Variant {
  audience?: string;
  destination?: string;
  recipient?: string;
  /** Both the Response's and the SubjectConfirmationData's InResponseTo. */
  inResponseTo?: string;
  /** Only the SubjectConfirmationData's InResponseTo (inside the signature). */
  confirmationInResponseTo?: string;
  /** ms offsets from the clock's now. */
  notBefore?: number;
  notOnOrAfter?: number;
  /** The SubjectConfirmationData's NotOnOrAfter (default: the Conditions' one). */
  confirmationNotOnOrAfter?: number;
  status?: string;
  assertionId?: string;
  /** The Response's and the assertion's Issuer. */
  issuer?: string;
  /** Only the assertion's Issuer (inside the signature). */
  assertionIssuer?: string;
  /** Signed with a key the IdP's metadata does not name. */
  otherKey?: boolean;
  /** The whole Response signed and the assertion not (Shibboleth's default), instead of the assertion signed. */
  signResponse?: boolean;
  /** The (signed) assertion encrypted to the SP's encryption certificate. */
  encrypted?: boolean;
  /** Every ds:Signature removed. */
  unsigned?: boolean;
  nameId?: string;
  nameIdFormat?: string;
}

async function keyPair(cn: string) {
  const algorithm = { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };
  const keys = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: `CN=${cn}`,
    notBefore: new Date(0),
    notAfter: new Date(Date.UTC(2100, 0)),
    signingAlgorithm: algorithm,
    keys,
  });
  const der = Buffer.from(await crypto.subtle.exportKey("pkcs8", keys.privateKey)).toString("base64");
  return { key: `-----BEGIN PRIVATE KEY-----\n${der.replace(/.{64}/g, "$&\n")}\n-----END PRIVATE KEY-----\n`, cert: cert.toString("pem") };
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `host`: the name in the IdP's URLs (it listens on 127.0.0.1 either way); a browser test uses
 * `localhost`, another site than Cairn's 127.0.0.1, so that the IdP's post to the ACS is cross-site.
 */
export async function startSamlIdp(clock: ManualClock, host = "127.0.0.1") {
  let metadataStatus = 200;
  /** Who the IdP's /sso page signs in (a browser test's IdP login, without a form), and for which of Cairn's IdP names. */
  let loginAs: { nameId: string; attributes: Attributes } | null = null;
  let loginSp = "uni";
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith("/sso?") && loginAs) {
      void ssoPage(`${base}${req.url}`, loginAs, loginSp).then(
        (html) => {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(html);
        },
        (error: Error) => {
          res.writeHead(400, { "content-type": "text/plain" });
          res.end(error.message);
        },
      );
      return;
    }
    if (req.url?.startsWith("/sso?")) {
      // Nobody to sign in: the IdP's login page, where the person would type their password.
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end('<!DOCTYPE html><html lang="en"><head><title>IdP</title></head><body><h1>Sign in at the IdP</h1></body></html>');
      return;
    }
    if (req.url === "/metadata" && metadataStatus === 200) {
      res.writeHead(200, { "content-type": "application/samlmetadata+xml" });
      res.end(metadataXml);
      return;
    }
    res.writeHead(metadataStatus === 200 ? 404 : metadataStatus);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/idp`;
  const ssoUrl = `${base}/sso`;
  const [main, other] = await Promise.all([keyPair("test IdP"), keyPair("someone else")]);
  const make = (keys: { key: string; cert: string }, encrypt = false) =>
    samlify.IdentityProvider({
      entityID: entityId,
      privateKey: keys.key,
      signingCert: keys.cert,
      singleSignOnService: [{ Binding: REDIRECT, Location: ssoUrl }],
      nameIDFormat: [PERSISTENT],
      wantAuthnRequestsSigned: true,
      requestSignatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      isAssertionEncrypted: encrypt,
    });
  const idp = make(main);
  const forger = make(other);
  const encrypter = make(main, true);
  const metadataXml: string = idp.getMetadata();
  const dir = mkdtempSync(join(tmpdir(), "cairn-saml-idp-"));
  const metadataFile = join(dir, "idp-metadata.xml");
  writeFileSync(metadataFile, metadataXml);
  /** The SPs the IdP knows, by a name of the test's choosing (Cairn's IdP names). */
  const sps = new Map<string, any>();

  const api = {
    /** Makes the IdP's /sso page sign in `person` (null: it shows its login page and stays there), for Cairn's IdP `spName`. */
    loginAs: (person: { nameId: string; attributes: Attributes } | null, spName = "uni") => {
      loginAs = person;
      loginSp = spName;
    },
    entityId,
    ssoUrl,
    metadataFile,
    metadataUrl: `${base}/metadata`,
    metadataXml,
    /** Makes the metadata URL answer this status (200: the metadata). */
    setMetadataStatus: (status: number) => (metadataStatus = status),
    /** Registers Cairn's SP metadata (for one of its IdP names), which the IdP reads as an IdP reads a registered SP's. */
    useSpMetadata(name: string, xml: string) {
      sps.set(name, samlify.ServiceProvider({ metadata: xml }));
      // The same SP as an IdP that signs responses rather than assertions sees it.
      sps.set(`${name}#response`, samlify.ServiceProvider({ metadata: xml.replace(/ WantAssertionsSigned="true"/, ""), wantMessageSigned: true }));
    },
    /** samlify parses (and checks the signature of) the AuthnRequest in Cairn's redirect URL. */
    async parseRequest(url: string, spName = "uni"): Promise<{ id: string; issuer: string; acsUrl: string; destination: string; xml: string }> {
      const u = new URL(url);
      const query = Object.fromEntries(u.searchParams);
      // The signed octets: the query's parameters as sent, in the order the binding names (SAML bindings §3.4.4.1).
      const raw = u.search.slice(1).split("&");
      const pick = (name: string) => raw.find((p) => p.startsWith(`${name}=`));
      const octetString = ["SAMLRequest", "RelayState", "SigAlg"].map(pick).filter(Boolean).join("&");
      const parsed = await idp.parseLoginRequest(sps.get(spName), "redirect", { query, octetString });
      return {
        id: parsed.extract.request.id,
        issuer: parsed.extract.issuer,
        acsUrl: parsed.extract.request.assertionConsumerServiceUrl,
        destination: parsed.extract.request.destination,
        xml: parsed.samlContent,
      };
    },
    /** A base64 SAMLResponse to request `requestId` about a person, made by samlify with the times of `clock`. */
    async respond(requestId: string, person: { nameId: string; attributes: Attributes }, variant: Variant = {}, spName = "uni"): Promise<string> {
      const sp = sps.get(variant.signResponse ? `${spName}#response` : spName);
      const now = clock.now();
      const acs = sp.entityMeta.getAssertionConsumerService("post") as string;
      const attributes = Object.entries(person.attributes)
        .map(
          ([name, values]) =>
            `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
              .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
              .join("")}</saml:Attribute>`,
        )
        .join("");
      const id = `_${crypto.randomUUID()}`;
      const values: Record<string, string> = {
        ID: id,
        AssertionID: variant.assertionId ?? `_${crypto.randomUUID()}`,
        Destination: variant.destination ?? acs,
        Audience: variant.audience ?? sp.entityMeta.getEntityID(),
        SubjectRecipient: variant.recipient ?? acs,
        Issuer: variant.issuer ?? entityId,
        IssueInstant: iso(now),
        StatusCode: variant.status ?? "urn:oasis:names:tc:SAML:2.0:status:Success",
        ConditionsNotBefore: iso(now + (variant.notBefore ?? 0)),
        ConditionsNotOnOrAfter: iso(now + (variant.notOnOrAfter ?? 5 * 60_000)),
        SubjectConfirmationDataNotOnOrAfter: iso(now + (variant.confirmationNotOnOrAfter ?? variant.notOnOrAfter ?? 5 * 60_000)),
        NameIDFormat: variant.nameIdFormat ?? PERSISTENT,
        NameID: variant.nameId ?? person.nameId,
        InResponseTo: variant.inResponseTo ?? requestId,
      };
      let issuers = 0;
      let answers = 0;
      const fill = (template: string) =>
        template
          .replace(/\{InResponseTo\}/g, () => escapeXml(answers++ === 0 ? values.InResponseTo! : (variant.confirmationInResponseTo ?? values.InResponseTo!)))
          .replace(/\{Issuer\}/g, () => escapeXml(issuers++ === 0 ? values.Issuer! : (variant.assertionIssuer ?? values.Issuer!)))
          .replace(
            "{AuthnStatement}",
            `<saml:AuthnStatement AuthnInstant="${iso(now)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
          )
          .replace("{AttributeStatement}", attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "")
          .replace(/\{(\w+)\}/g, (_, k: string) => escapeXml(values[k] ?? ""));
      const made = await (variant.otherKey ? forger : variant.encrypted ? encrypter : idp).createLoginResponse(
        sp,
        { extract: { request: { id: requestId } } },
        "post",
        {},
        (template: string) => ({
          id,
          context: fill(template),
        }),
      );
      if (!variant.unsigned) return made.context as string;
      const xml = Buffer.from(made.context, "base64").toString("utf8");
      return Buffer.from(xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, "")).toString("base64");
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };

  /** The IdP's answer to the browser: the page whose form posts the response to the ACS (HTTP-POST binding), sent at once by its script. */
  async function ssoPage(url: string, person: { nameId: string; attributes: Attributes }, spName: string): Promise<string> {
    const request = await api.parseRequest(url, spName);
    const response = await api.respond(request.id, person, {}, spName);
    return `<!DOCTYPE html><html lang="en"><head><title>IdP</title></head><body><form method="post" action="${escapeXml(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${response}"><button>Continue</button></form><script>document.forms[0].submit()</script></body></html>`;
  }
  return api;
}

export type TestSamlIdp = Awaited<ReturnType<typeof startSamlIdp>>;

const decode = (b64: string) => Buffer.from(b64, "base64").toString("utf8");
const encode = (xml: string) => Buffer.from(xml).toString("base64");

/**
 * Signature wrapping (XSW, as in "On Breaking SAML", Somorovsky et al. 2012): the genuinely signed
 * assertion is kept, untouched, inside a forged one that names another person; the forged
 * assertion is the one a careless SP would read. `where`: the signed assertion goes into the forged
 * assertion's Subject (XSW7-like: inside the read element), or next to the Response's Status
 * (XSW3-like: before the forged one, as a sibling).
 */
export function wrap(signedResponse: string, forgedNameId: string, forgedEmail: string, where: "inside" | "sibling"): string {
  const xml = decode(signedResponse);
  const original = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
  const forged = original
    .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "")
    .replace(/ID="[^"]+"/, `ID="_forged-${crypto.randomUUID()}"`)
    .replace(/<saml:NameID([^>]*)>[^<]*</, `<saml:NameID$1>${forgedNameId}<`)
    .replace(/(Name="urn:oid:0\.9\.2342\.19200300\.100\.1\.3"[^>]*>\s*<saml:AttributeValue[^>]*>)[^<]*/, `$1${forgedEmail}`)
    .replace(/(Name="urn:oid:1\.3\.6\.1\.4\.1\.5923\.1\.1\.1\.6"[^>]*>\s*<saml:AttributeValue[^>]*>)[^<]*/, `$1${forgedNameId}`);
  if (where === "inside") {
    const withOriginal = forged.replace(/<\/saml:Subject>/, `<saml:SubjectConfirmation Method="urn:example:wrapper">${original}</saml:SubjectConfirmation></saml:Subject>`);
    return encode(xml.replace(original, withOriginal));
  }
  return encode(xml.replace(original, `<samlp:Extensions>${original}</samlp:Extensions>${forged}`));
}
