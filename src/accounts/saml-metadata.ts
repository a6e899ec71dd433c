// What each side of a SAML sign-in knows of the other: the IdP's metadata (entity ID, single
// sign-on address, signing certificates) read with a real XML parser, and Cairn's own key pair and
// self-signed certificate (DATA/saml/sp.pem, made on first use) that sign its AuthnRequests.
import { hkdfSync } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const MD_NS = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS_NS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

export interface IdpMetadata {
  entityId: string;
  /** The SingleSignOnService of the HTTP-Redirect binding. */
  ssoUrl: string;
  /** PEM certificates the IdP signs with (more than one during a key rollover). */
  certs: string[];
}

/** Thrown with what is wrong with a metadata document. */
export class MetadataError extends Error {}

const pemOf = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64.replace(/\s+/g, "").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END CERTIFICATE-----\n`;

/** The little of the DOM that is read here (xmldom's nodes). */
export interface XmlElement {
  nodeType: number;
  namespaceURI: string | null;
  localName: string | null;
  textContent: string | null;
  childNodes: ArrayLike<XmlElement>;
  getAttribute(name: string): string | null;
}
interface XmlDocument {
  documentElement: XmlElement | null;
}
// @xmldom/xmldom (node-saml's own parser) is loaded untyped: its typings pull TypeScript's DOM
// library into the whole project, where it clashes with Bun's types.
const { DOMParser } = require("@xmldom/xmldom") as { DOMParser: new (options: unknown) => { parseFromString(xml: string, type: string): XmlDocument | undefined } };

/** A parser that throws on any XML error (xmldom only reports them by default). */
export function parseXml(xml: string): XmlDocument & { documentElement: XmlElement } {
  const fail = (msg: string) => {
    throw new MetadataError(`not well-formed XML (${msg.split("\n")[0]})`);
  };
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: fail, fatalError: fail } }).parseFromString(xml, "text/xml");
  if (!doc?.documentElement) throw new MetadataError("not XML");
  return doc as XmlDocument & { documentElement: XmlElement };
}

const childrenOf = (el: XmlElement, ns: string, name: string): XmlElement[] =>
  Array.from(el.childNodes).filter((n) => n.nodeType === 1 && n.namespaceURI === ns && n.localName === name);

/**
 * The IdP's facts from its metadata: an EntityDescriptor with an IDPSSODescriptor (or an
 * EntitiesDescriptor holding exactly one such entity), its HTTP-Redirect SingleSignOnService, and
 * the certificates of its KeyDescriptors for signing (those without `use` sign too).
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  const root = parseXml(xml).documentElement;
  const entities =
    root.namespaceURI === MD_NS && root.localName === "EntityDescriptor"
      ? [root]
      : root.namespaceURI === MD_NS && root.localName === "EntitiesDescriptor"
        ? childrenOf(root, MD_NS, "EntityDescriptor")
        : [];
  const idps = entities.filter((e) => childrenOf(e, MD_NS, "IDPSSODescriptor").length > 0);
  if (idps.length !== 1) throw new MetadataError(`expected one EntityDescriptor with an IDPSSODescriptor, found ${idps.length}`);
  const entity = idps[0]!;
  const entityId = entity.getAttribute("entityID") ?? "";
  if (!entityId) throw new MetadataError("the EntityDescriptor has no entityID");
  const descriptor = childrenOf(entity, MD_NS, "IDPSSODescriptor")[0]!;
  const sso = childrenOf(descriptor, MD_NS, "SingleSignOnService").find((s) => s.getAttribute("Binding") === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute("Location") ?? "";
  if (!/^https?:\/\//.test(ssoUrl)) throw new MetadataError("the IDPSSODescriptor has no SingleSignOnService with the HTTP-Redirect binding");
  const certs: string[] = [];
  for (const key of childrenOf(descriptor, MD_NS, "KeyDescriptor")) {
    const use = key.getAttribute("use");
    if (use && use !== "signing") continue;
    for (const info of childrenOf(key, DS_NS, "KeyInfo"))
      for (const data of childrenOf(info, DS_NS, "X509Data"))
        for (const cert of childrenOf(data, DS_NS, "X509Certificate")) if (cert.textContent?.trim()) certs.push(pemOf(cert.textContent));
  }
  if (certs.length === 0) throw new MetadataError("the IDPSSODescriptor names no signing certificate");
  return { entityId, ssoUrl, certs };
}

export interface SpKeys {
  /** PKCS#8 PEM of the RSA key. */
  key: string;
  cert: string;
  /** A key of Cairn's own for the ACS's one-use codes, derived from the private key (every process has the same). */
  codeKey: Buffer;
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END ${label}-----\n`;

/** RSA 2048 with SHA-256: what XML signatures (xml-crypto) and every IdP take. */
async function makeSpKeys(subject: string): Promise<string> {
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  const algorithm = { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };
  const keys = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
      .toString("hex")
      .replace(/^[89a-f]/, "1"),
    name: `CN=${subject.replace(/[,+="<>#;\\]/g, "")}, O=Cairn SAML`,
    notBefore: new Date(now - 60_000),
    // Metadata certificates carry keys, not trust: IdPs do not check their dates. Ten years.
    notAfter: new Date(now + 3650 * 86_400_000),
    signingAlgorithm: algorithm,
    keys,
  });
  return pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", keys.privateKey)) + cert.toString("pem") + "\n";
}

/**
 * Cairn's SAML key pair from DATA/saml/sp.pem, made when missing. Written to a temporary file and
 * hard-linked into place, so of two processes starting at once one wins and both use its keys.
 */
export async function ensureSpKeys(dataDir: string, subject: string): Promise<SpKeys> {
  const dir = join(dataDir, "saml");
  const file = join(dir, "sp.pem");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `sp.pem.${process.pid}.${Date.now()}`);
    writeFileSync(tmp, await makeSpKeys(subject), { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  const text = readFileSync(file, "utf8");
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n/.exec(text)?.[0];
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/.exec(text)?.[0];
  if (!key || !cert) throw new Error(`${file} does not hold a private key and a certificate`);
  return { key, cert, codeKey: Buffer.from(hkdfSync("sha256", key, "", "cairn saml acs code", 32)) };
}
