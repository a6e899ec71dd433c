// Headers every response carries for browsers: no MIME sniffing, a content security policy under
// which an API response runs nothing, and HSTS when the service is reached over HTTPS.

/** JSON, files and errors are data, never a page: nothing loads, nothing frames them. (The docs page sets its own.) */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** InvenioRDM's (Flask-Talisman's) HSTS: one year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31556926; includeSubDomains";

/** Sets the security headers into `headers` (a route's own headers, such as the docs page's CSP, win over these). */
export function setSecurityHeaders(headers: Record<string, string | number>, https: boolean): void {
  headers["x-content-type-options"] = "nosniff";
  headers["content-security-policy"] = API_CONTENT_SECURITY_POLICY;
  if (https) headers["strict-transport-security"] = STRICT_TRANSPORT_SECURITY;
}
