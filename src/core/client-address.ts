// The address a request came from: the socket's peer or, behind trusted reverse proxies
// (APP_TRUSTED_PROXIES), the X-Forwarded-For entry they vouch for. Used by the rate limits.
import { BlockList, isIP } from "node:net";

/** What a server knows of a request's connection (Bun's and Elysia's `server`). */
export interface PeerInfo {
  requestIP(request: Request): { address: string } | null;
}

/**
 * Addresses given to requests handled in-process (`app.handle` has no socket): tests use it to
 * play a remote client. Nothing on the network can set it.
 */
const attached = new WeakMap<Request, string>();

export function withClientAddress(request: Request, address: string): Request {
  attached.set(request, address);
  return request;
}

/** Strips the IPv4-mapped prefix Bun reports on dual-stack sockets (`::ffff:203.0.113.5`). */
const plain = (address: string) => (address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address);

export function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.");
}

/** What a route is handed to name the client (an AddressResolver, or a stand-in): the address, or null. */
export type AddressOf = (request: Request, server: PeerInfo | null) => string | null;

export interface AddressResolver {
  /** The client's address, or null when the request came in-process and none was attached. */
  (request: Request, server: PeerInfo | null): string | null;
  /** True when X-Forwarded-For is believed from some peers. */
  readonly trustsProxies: boolean;
}

/** Parses `10.0.0.1`, `10.0.0.0/8` or `fd00::/8` into the block list; throws on anything else. */
function addTrusted(list: BlockList, entry: string) {
  const [address, prefix, extra] = entry.split("/");
  const family = isIP(address ?? "");
  if (!family || extra !== undefined) throw new Error(`'${entry}' is not an IP address or CIDR range`);
  const type = family === 4 ? "ipv4" : "ipv6";
  if (prefix === undefined) return list.addAddress(address!, type);
  const bits = Number(prefix);
  if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`'${entry}' has a bad prefix length`);
  list.addSubnet(address!, bits, type);
}

/** Throws a message naming the first entry that is neither an address nor a CIDR range. */
export function checkTrustedProxies(entries: string[]): void {
  const list = new BlockList();
  for (const entry of entries) addTrusted(list, entry);
}

export function createAddressResolver(trustedProxies: string[]): AddressResolver {
  const trusted = new BlockList();
  for (const entry of trustedProxies) addTrusted(trusted, entry);
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 4 ? "ipv4" : "ipv6");
  };
  const resolve = (request: Request, server: PeerInfo | null): string | null => {
    const peerRaw = attached.get(request) ?? server?.requestIP(request)?.address;
    if (peerRaw === undefined) return null;
    const peer = plain(peerRaw);
    if (trustedProxies.length === 0 || !isTrusted(peer)) return peer;
    // Read right to left: each trusted proxy appended the address it received from; the first
    // untrusted one is the client (entries further left are the client's to invent).
    const forwarded = request.headers.get("x-forwarded-for");
    if (!forwarded) return peer;
    const hops = forwarded.split(",");
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]!.trim());
      if (!isIP(hop)) break;
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return client;
  };
  return Object.assign(resolve, { trustsProxies: trustedProxies.length > 0 });
}
