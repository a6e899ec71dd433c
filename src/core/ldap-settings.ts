// The LDAP_* settings: which attributes of a directory entry hold a person's facts
// (LDAP_ATTRIBUTES, a cairn.toml table or a JSON object), and the checks made at start on the URL
// and the user filter.
import { parseNameTable } from "./config-tables";

/** Which attribute of the directory entry holds each fact about the person ("" for affiliation: none). */
export interface LdapAttributeNames {
  email: string;
  /** The person's name; an entry without it falls back to `cn`. */
  name: string;
  affiliation: string;
  /** A multi-valued attribute of group DNs (memberOf) or names; each DN's first RDN value (its CN) is the group's name. */
  groups: string;
}

export const DEFAULT_LDAP_ATTRIBUTES: LdapAttributeNames = { email: "mail", name: "displayName", affiliation: "", groups: "memberOf" };

// An attribute description (RFC 4512 2.5): a name or an OID, options aside.
const ATTRIBUTE = /^([A-Za-z][A-Za-z0-9-]*|\d+(\.\d+)+)$/;

/** LDAP_ATTRIBUTES: a table (TOML) or a JSON object string (the environment); keys not given keep their defaults. */
export const parseLdapAttributes = (raw: unknown): LdapAttributeNames =>
  parseNameTable(
    raw,
    DEFAULT_LDAP_ATTRIBUTES,
    (k, v) =>
      typeof v === "string" && (ATTRIBUTE.test(v) || (v === "" && (k === "affiliation" || k === "groups")))
        ? null
        : `${k} must be an attribute name such as mail${k === "affiliation" || k === "groups" ? ' (or "" for none)' : ""}, got ${JSON.stringify(v)}`,
    { toml: '{ email = "mail", name = "displayName" }', json: '{"email": "mail", "name": "displayName"}' },
  );

/** What is wrong with the directory settings, or null: checked at start only when LDAP_URL is set. */
export function ldapSettingsProblem(s: { url: string; startTls: boolean; bindDn: string; bindPassword: string; searchBase: string; userFilter: string }): string | null {
  let url: URL;
  try {
    url = new URL(s.url);
  } catch {
    return `LDAP_URL is not a URL such as ldaps://ldap.example.org, got ${JSON.stringify(s.url)}`;
  }
  if (url.protocol !== "ldap:" && url.protocol !== "ldaps:") return `LDAP_URL must start with ldap:// or ldaps://, got ${JSON.stringify(s.url)}`;
  if (!url.hostname) return `LDAP_URL names no host: ${JSON.stringify(s.url)}`;
  if ((url.pathname && url.pathname !== "/") || url.search)
    return `LDAP_URL is the server only (scheme, host, port), got ${JSON.stringify(s.url)}; the base goes in LDAP_SEARCH_BASE`;
  if (s.startTls && url.protocol === "ldaps:") return "LDAP_START_TLS is for ldap:// URLs (ldaps:// is TLS from the start)";
  if (!s.searchBase.trim()) return "LDAP_SEARCH_BASE is required with LDAP_URL (the DN people are searched under, such as ou=people,dc=uni,dc=example)";
  if (s.bindDn && !s.bindPassword) return "LDAP_BIND_PASSWORD is required with LDAP_BIND_DN (an empty password would be an unauthenticated bind)";
  if (!s.userFilter.includes("{login}")) return `LDAP_USER_FILTER must contain {login} (where the typed name goes), got ${JSON.stringify(s.userFilter)}`;
  if (!/^\(.*\)$/s.test(s.userFilter.trim())) return `LDAP_USER_FILTER must be a filter in parentheses such as (uid={login}), got ${JSON.stringify(s.userFilter)}`;
  let depth = 0;
  for (const c of s.userFilter.replaceAll("\\(", "").replaceAll("\\)", "")) {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (depth < 0) break;
  }
  if (depth !== 0) return `LDAP_USER_FILTER has unbalanced parentheses: ${JSON.stringify(s.userFilter)}`;
  return null;
}
