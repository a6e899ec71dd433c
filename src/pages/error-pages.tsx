// The page a browser gets for an error no page route answered (an unknown URL, a method the URL
// does not take, a fault of ours): the layout's ErrorPage with the site's navigation, instead of
// the API's JSON (core/http.ts decides who gets it).
import type { Actor } from "../core/actor";
import type { HttpError } from "../core/errors";
import { pageContextOf, type PagesDeps } from "./context";
import { htmlResponse } from "./http";
import { ErrorPage } from "./layout";

/** Renders `error` as the error page for `actor`; its headers (Allow, WWW-Authenticate, Retry-After) are kept. */
export function htmlErrorPages(deps: PagesDeps) {
  return async (error: HttpError, request: Request, actor: Actor): Promise<Response> => {
    const ctx = await pageContextOf(deps, actor, request);
    // The same URL answers JSON to API clients: caches must keep the two apart.
    return htmlResponse(<ErrorPage ctx={ctx} status={error.status} message={error.message} />, error.status, { ...error.headers, Vary: "Accept" });
  };
}
