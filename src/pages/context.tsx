// What the pages are handed (the services they call, picked in services.ts: pages hold no SQL and
// decide no permission), and the page context of a request.
import type { Actor } from "../core/actor";
import { ErrorPage, type PageContext } from "./layout";
import { htmlResponse, pageError } from "./http";
import type { Node } from "./jsx-runtime";
import type { PageServices } from "./services";
import type { Theme } from "./theme";
import type { AddressResolver } from "../core/client-address";

export interface PagesDeps {
  services: PageServices;
  siteName: string;
  /** Cookies get `Secure` when the site is reached over HTTPS. */
  https: boolean;
  /** The THEME_* settings as the layout shows them (pages/theme.ts; routes.ts reads them once). */
  theme: Theme;
  /** The client's address, as the statistics count a landing page's visitor (APP_TRUSTED_PROXIES decides who the client is). */
  addressOf: AddressResolver;
}

export async function pageContextOf(deps: PagesDeps, actor: Actor, request: Request): Promise<PageContext> {
  const url = new URL(request.url);
  const user = actor.kind === "user" ? await deps.services.users.findUserById(actor.userId) : null;
  // The header's badge: requests waiting for this person's decision (the requests service's query decides which).
  const awaitingRequests = actor.kind === "user" ? await deps.services.requests.countAwaitingAction(actor) : 0;
  return {
    actor,
    siteName: deps.siteName,
    theme: deps.theme,
    here: url.pathname + url.search,
    userName: user ? user.fullName || user.username || user.email : undefined,
    awaitingRequests,
  };
}

/**
 * Runs a page handler; a refusal or a missing thing from the services becomes the HTML error page
 * with its status (the REST API would have answered the same status as JSON).
 */
export async function renderOrError(ctx: PageContext, handler: () => Node | Response | Promise<Node | Response>): Promise<Response> {
  try {
    const result = await handler();
    return result instanceof Response ? result : htmlResponse(result);
  } catch (error) {
    const { status, message, tombstone } = pageError(error);
    return htmlResponse(<ErrorPage ctx={ctx} status={status} message={message} tombstone={tombstone} />, status);
  }
}
