// Cairn's own checks of a SAML response that node-saml has already verified (signature from the
// IdP's certificate over the assertion or the response, one assertion, no signature wrapping,
// Audience): the times by Cairn's clock (node-saml reads the system's, so its time checks are off),
// Destination, Recipient, InResponseTo, Issuer and Status — the SAML Web Browser SSO profile's
// rules (saml-profiles-2.0-os §4.1.4.3) that node-saml leaves to the caller.
import { parseXml, type XmlElement } from "./saml-metadata";

const PROTOCOL_NS = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION_NS = "urn:oasis:names:tc:SAML:2.0:assertion";
const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
/** How far the IdP's clock may be from Cairn's. */
export const SAML_CLOCK_SKEW_MS = 2 * 60_000;

export interface CheckedResponse {
  /** The AuthnRequest it answers. */
  requestId: string;
  assertionId: string;
  /** When the assertion stops being accepted anyway (the replay record may go then). */
  expiresAt: number;
}

const children = (el: XmlElement, ns: string, name: string): XmlElement[] =>
  Array.from(el.childNodes).filter((n) => n.nodeType === 1 && n.namespaceURI === ns && n.localName === name);
const child = (el: XmlElement, ns: string, name: string): XmlElement | undefined => children(el, ns, name)[0];
const text = (el: XmlElement | undefined) => el?.textContent?.trim() ?? "";

/** A dateTime attribute in ms; null when absent; an error for one that is no date. */
function timeOf(el: XmlElement, attr: string, refuse: (why: string) => never): number | null {
  const value = el.getAttribute(attr);
  if (!value) return null;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(ms)) refuse(`its ${el.localName} ${attr} is not a time (${value})`);
  return ms;
}

/**
 * Checks `responseXml` (the whole response as sent; only Destination, InResponseTo, Issuer and
 * Status are read from it, each also bound by the signed assertion or harmless) and
 * `assertionXml` (the assertion node-saml verified the signature of).
 */
export function checkSamlResponse(
  responseXml: string,
  assertionXml: string,
  expect: { acsUrl: string; idpEntityId: string; now: number },
  refuse: (why: string) => never,
): CheckedResponse {
  const { acsUrl, idpEntityId, now } = expect;
  const response = parseXml(responseXml).documentElement;
  if (response.namespaceURI !== PROTOCOL_NS || response.localName !== "Response") refuse("it is not a SAML Response");
  const statusCode = child(child(response, PROTOCOL_NS, "Status") ?? response, PROTOCOL_NS, "StatusCode")?.getAttribute("Value");
  if (statusCode !== SUCCESS) refuse(`it answered ${statusCode ?? "no status"}`);
  // Destination: a response made for another service's ACS is not taken here.
  if (response.getAttribute("Destination") !== acsUrl) refuse(`it was addressed to ${response.getAttribute("Destination") || "no Destination"}, not ${acsUrl}`);
  const requestId = response.getAttribute("InResponseTo") ?? "";
  if (!requestId) refuse("it answers no request of Cairn's (sign-ins started at the IdP are not accepted)");
  const responseIssuer = child(response, ASSERTION_NS, "Issuer");
  if (responseIssuer && text(responseIssuer) !== idpEntityId) refuse(`it was issued by ${text(responseIssuer)}`);

  const assertion = parseXml(assertionXml).documentElement;
  const assertionId = assertion.getAttribute("ID") ?? "";
  if (!assertionId) refuse("its assertion has no ID");
  if (text(child(assertion, ASSERTION_NS, "Issuer")) !== idpEntityId) refuse(`its assertion was issued by ${text(child(assertion, ASSERTION_NS, "Issuer")) || "nobody"}`);

  // The bearer confirmation (inside the signature): for this ACS, this request, not yet expired.
  const subject = child(assertion, ASSERTION_NS, "Subject");
  const confirmations = subject ? children(subject, ASSERTION_NS, "SubjectConfirmation").filter((c) => c.getAttribute("Method") === BEARER) : [];
  if (confirmations.length === 0) refuse("its assertion has no bearer SubjectConfirmation");
  let confirmedUntil: number | null = null;
  const problems: string[] = [];
  for (const confirmation of confirmations) {
    const data = child(confirmation, ASSERTION_NS, "SubjectConfirmationData");
    if (!data) {
      problems.push("a SubjectConfirmation without SubjectConfirmationData");
      continue;
    }
    const notBefore = timeOf(data, "NotBefore", refuse);
    const notOnOrAfter = timeOf(data, "NotOnOrAfter", refuse);
    if (data.getAttribute("Recipient") !== acsUrl) problems.push(`its Recipient is ${data.getAttribute("Recipient") || "missing"}, not ${acsUrl}`);
    else if (data.getAttribute("InResponseTo") !== requestId) problems.push("its SubjectConfirmationData answers another request");
    else if (notOnOrAfter === null) problems.push("its SubjectConfirmationData has no NotOnOrAfter");
    else if (now - SAML_CLOCK_SKEW_MS >= notOnOrAfter) problems.push(`it expired at ${new Date(notOnOrAfter).toISOString()}`);
    else if (notBefore !== null && now + SAML_CLOCK_SKEW_MS < notBefore) problems.push(`it is not valid before ${new Date(notBefore).toISOString()}`);
    else {
      confirmedUntil = notOnOrAfter;
      break;
    }
  }
  if (confirmedUntil === null) refuse(problems.join("; "));

  const conditions = children(assertion, ASSERTION_NS, "Conditions");
  if (conditions.length > 1) refuse("its assertion has more than one Conditions");
  let expiresAt = confirmedUntil!;
  if (conditions[0]) {
    const notBefore = timeOf(conditions[0], "NotBefore", refuse);
    const notOnOrAfter = timeOf(conditions[0], "NotOnOrAfter", refuse);
    if (notBefore !== null && now + SAML_CLOCK_SKEW_MS < notBefore) refuse(`its assertion is not valid before ${new Date(notBefore).toISOString()}`);
    if (notOnOrAfter !== null && now - SAML_CLOCK_SKEW_MS >= notOnOrAfter) refuse(`its assertion expired at ${new Date(notOnOrAfter).toISOString()}`);
    if (notOnOrAfter !== null) expiresAt = Math.max(expiresAt, notOnOrAfter);
  }
  return { requestId, assertionId, expiresAt: expiresAt + SAML_CLOCK_SKEW_MS };
}
