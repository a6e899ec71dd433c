// What every administration screen's routes share: the services, whether mail is off (the banner),
// and the origin of an action done through these pages (the client's address, `web`) for the
// audit log, recorded here or handed to the services that record it themselves.
import { createAddressResolver, type PeerInfo } from "../../core/client-address";
import type { Actor } from "../../core/actor";
import type { AuditInput } from "../../audit/model";
import type { PagesDeps } from "../context";
import { mailIsOff } from "../guest-forms";

export interface WebOrigin {
  via: "web";
  address: string | null;
}

export interface AdminKit {
  deps: PagesDeps;
  services: PagesDeps["services"];
  mailOff(): boolean;
  /** `{via: "web", address}` of this request, for a service that writes the audit entry itself. */
  origin(request: Request, server: PeerInfo | null): WebOrigin;
  /** Writes the audit entry of an action done through the pages. */
  audit(actor: Actor, request: Request, server: PeerInfo | null, input: Omit<AuditInput, "via" | "address">): Promise<void>;
}

export function adminKit(deps: PagesDeps): AdminKit {
  const config = deps.services.deps.config;
  const addressOf = createAddressResolver(config.APP_TRUSTED_PROXIES);
  const origin = (request: Request, server: PeerInfo | null): WebOrigin => ({ via: "web", address: addressOf(request, server) });
  return {
    deps,
    services: deps.services,
    mailOff: () => mailIsOff(deps),
    origin,
    audit: (actor, request, server, input) => deps.services.audit.record(actor, { ...input, ...origin(request, server) }),
  };
}

/** A query parameter as one string ("" when missing or repeated). */
export const text = (value: unknown) => (typeof value === "string" ? value : "");

export type Query = Record<string, unknown>;
