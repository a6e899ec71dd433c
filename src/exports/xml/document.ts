// The one XMLBuilder configuration every XML serialisation (exports and OAI-PMH) renders with.
import { XMLBuilder } from "fast-xml-parser";

/** An element tree as fast-xml-parser's builder reads it: attributes `@_name`, text `#text`, repeats as arrays. */
export type XmlTree = Record<string, unknown>;

// Characters XML 1.0 cannot carry at all, not even escaped (§2.2 Char): C0 controls but tab/LF/CR,
// lone surrogates, U+FFFE/U+FFFF. Stored metadata is already cleaned; files' names and keys may not be.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlSafeText(value: string): string {
  return value.replace(NOT_XML_CHAR, "");
}

const clean = (_name: string, value: unknown) => (typeof value === "string" ? xmlSafeText(value) : value);

/**
 * Escapes `& < > " '` in text and attribute values (processEntities); drops characters XML 1.0
 * forbids; keeps an attribute whose value is "true" as `a="true"` (the default would print a bare
 * HTML-style `a`, which is not XML).
 */
export const xmlBuilder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  processEntities: true,
  suppressBooleanAttributes: false,
  suppressEmptyNode: true,
  format: true,
  indentBy: "  ",
  tagValueProcessor: clean,
  attributeValueProcessor: clean,
});

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A whole document: the XML declaration, then the tree (one root element). */
export function renderXml(tree: XmlTree): string {
  return XML_DECLARATION + xmlBuilder.build(tree);
}

export const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";
