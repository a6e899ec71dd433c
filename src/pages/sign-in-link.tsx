// The one-time sign-in link of the desktop start (`GET /login/once?token=…`): the first
// administrator's session cookie, then the front page; a spent or wrong link gets an error page.
// A HEAD (link previewers, mail scanners) only says whether the link would work, leaving it unspent.
import { Elysia } from "elysia";
import { isHeadRequest, SESSION_COOKIE, type ActorContext } from "../core/http";
import { SIGN_IN_LINK_PATH } from "../sessions/sign-in-link";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { cookie, seeOther } from "./http";
import { Layout } from "./layout";

/** As long as a password sign-in's cookie (the session's own expiry ends it sooner when unused). */
const COOKIE_MAX_AGE_S = 30 * 86_400;

export const signInLinkPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia().use(http).get(SIGN_IN_LINK_PATH, async ({ actor, request, query }) => {
    // The page never echoes the token (the layout's sign-in link names the current address).
    const ctx = await pageContextOf(deps, actor, new Request(new URL(SIGN_IN_LINK_PATH, request.url).href));
    const token = typeof query.token === "string" ? query.token : "";
    return renderOrError(ctx, async () => {
      if (isHeadRequest(request)) {
        deps.services.signInLinks.check(token);
        // A page's headers and no sign-in (the body is dropped unsent).
        return (
          <Layout ctx={ctx} title="Sign-in link">
            <p>Open this link in your browser to sign in.</p>
          </Layout>
        );
      }
      const session = await deps.services.signInLinks.use(token);
      return seeOther("/", { "Set-Cookie": cookie(deps.https, SESSION_COOKIE, session.secret, COOKIE_MAX_AGE_S) });
    });
  });
