// Who sent a request, as far as usage statistics tell visitors apart: the client's address and
// user agent, read by routes so that services never need the request itself.

export interface Visitor {
  /** The client's IP address; null for requests handled in-process (tests, tools). */
  address: string | null;
  /** The User-Agent header ("" when there is none). */
  userAgent: string;
}

/**
 * The visitor of a request. `address` is the client's as the rate limits resolve it
 * (core/client-address.ts): behind trusted reverse proxies, the client they forwarded for, not the
 * proxy (whose one address would make every visitor the same one to the statistics).
 */
export function visitorOf(address: string | null, request: Request): Visitor {
  return { address, userAgent: request.headers.get("user-agent") ?? "" };
}
