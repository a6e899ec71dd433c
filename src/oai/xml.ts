// The OAI-PMH 2.0 response envelope (OAI-PMH.xsd): responseDate, request, then the verb's element
// or the errors; headers, records and resumption tokens. Rendered with the exports' XMLBuilder.
import { renderXml, XSI_NAMESPACE, type XmlTree } from "../exports/xml/document";

export const OAI_NAMESPACE = "http://www.openarchives.org/OAI/2.0/";
const OAI_SCHEMA_LOCATION = `${OAI_NAMESPACE} http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd`;

/** The protocol's error codes (OAI-PMH 2.0 §3.6). */
export type OaiErrorCode =
  "badArgument" | "badResumptionToken" | "badVerb" | "cannotDisseminateFormat" | "idDoesNotExist" | "noRecordsMatch" | "noMetadataFormats" | "noSetHierarchy";

export class OaiError extends Error {
  constructor(
    readonly code: OaiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** `YYYY-MM-DDThh:mm:ssZ`: the repository's granularity (UTCdatetimeType). */
export const oaiDatestamp = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

export interface Envelope {
  now: number;
  baseUrl: string;
  /** Arguments echoed in `<request>`; none after badVerb/badArgument, as the protocol requires. */
  args: Record<string, string>;
}

function document(envelope: Envelope, body: XmlTree): string {
  const request: XmlTree = { "#text": envelope.baseUrl };
  for (const [name, value] of Object.entries(envelope.args)) request[`@_${name}`] = value;
  return renderXml({
    "OAI-PMH": {
      "@_xmlns": OAI_NAMESPACE,
      "@_xmlns:xsi": XSI_NAMESPACE,
      "@_xsi:schemaLocation": OAI_SCHEMA_LOCATION,
      responseDate: oaiDatestamp(envelope.now),
      request,
      ...body,
    },
  });
}

/** A verb's answer: `{[verb]: content}`. */
export const renderVerb = (envelope: Envelope, verb: string, content: XmlTree) => document(envelope, { [verb]: content });

export function renderError(envelope: Envelope, error: OaiError): string {
  const bare = error.code === "badVerb" || error.code === "badArgument";
  return document({ ...envelope, args: bare ? {} : envelope.args }, { error: { "@_code": error.code, "#text": error.message } });
}

export interface Header {
  identifier: string;
  datestamp: number;
  setSpecs: string[];
  deleted: boolean;
}

/** `<header>` (OAI-PMH §2.5): identifier, datestamp, setSpec*, status="deleted" for tombstones. */
export function headerTree(header: Header): XmlTree {
  return {
    ...(header.deleted ? { "@_status": "deleted" } : {}),
    identifier: header.identifier,
    datestamp: oaiDatestamp(header.datestamp),
    ...(header.setSpecs.length ? { setSpec: header.setSpecs } : {}),
  };
}

/** `<record>`: a deleted record carries no `<metadata>`. */
export const recordTree = (header: Header, metadata: XmlTree | null): XmlTree => ({
  header: headerTree(header),
  ...(metadata && !header.deleted ? { metadata } : {}),
});

export interface TokenInfo {
  /** Empty on the last page of a list that needed tokens. */
  token: string;
  cursor: number;
  completeListSize: number;
  expires?: number;
}

/** `<resumptionToken>` with its cursor, completeListSize and expirationDate attributes. */
export function tokenTree(info: TokenInfo): XmlTree {
  return {
    ...(info.token && info.expires !== undefined ? { "@_expirationDate": oaiDatestamp(info.expires) } : {}),
    "@_completeListSize": String(info.completeListSize),
    "@_cursor": String(info.cursor),
    "#text": info.token,
  };
}
