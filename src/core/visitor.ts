// Who sent a request, as far as usage statistics tell visitors apart: the client's address and
// user agent, read by routes so that services never need the request itself.

export interface Visitor {
  /** The client's IP address; null for requests handled in-process (tests, tools). */
  address: string | null;
  /** The User-Agent header ("" when there is none). */
  userAgent: string;
}

/** What a server knows of a request's connection (Bun's and Elysia's `server`). */
export interface ConnectionInfo {
  requestIP(request: Request): { address: string } | null;
}

/** The visitor of a request: only the server that received it knows the address. */
export function visitorOf(server: ConnectionInfo | null, request: Request): Visitor {
  return { address: server?.requestIP(request)?.address ?? null, userAgent: request.headers.get("user-agent") ?? "" };
}
