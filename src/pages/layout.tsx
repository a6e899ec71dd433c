// The frame of every page: head (title, stylesheet, scripts, extra head elements such as a
// record's meta tags), the header with the site's navigation and the caller's account, the
// footer. Every page is rendered through it.
import type { Actor } from "../core/actor";
import { asset } from "./assets";
import type { Child } from "./jsx-runtime";
import { DEFAULT_THEME, type Theme } from "./theme";

/** What every page knows of the request. */
export interface PageContext {
  actor: Actor;
  siteName: string;
  /** The request's path and query (for "sign in and come back"). */
  here: string;
  /** The signed-in user's display name, when signed in. */
  userName?: string;
  /** The THEME_* settings (none: Cairn's own look). */
  theme?: Theme;
  /** Requests waiting for the signed-in person's decision (the header's badge). */
  awaitingRequests?: number;
}

export interface LayoutProps {
  ctx: PageContext;
  title: string;
  /** Extra head elements (meta tags, JSON-LD). */
  head?: Child;
  /** Page scripts besides site.js (registered asset names). */
  scripts?: string[];
  children?: Child;
}

export function Layout({ ctx, title, head, scripts = [], children }: LayoutProps) {
  const signedIn = ctx.actor.kind === "user";
  const theme = ctx.theme ?? DEFAULT_THEME;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} | ${ctx.siteName}`}</title>
        <link rel="icon" type="image/svg+xml" href={asset("favicon.svg").url} />
        <link rel="stylesheet" href={asset("site.css").url} />
        {theme.stylesheetUrl ? <link rel="stylesheet" href={theme.stylesheetUrl} /> : null}
        {ctx.actor.csrf ? <meta name="csrf-token" content={ctx.actor.csrf} /> : null}
        {head}
        <script src={asset("site.js").url} defer />
        {scripts.map((name) => (
          <script src={asset(name).url} defer />
        ))}
      </head>
      <body>
        <a class="skip" href="#content">
          Skip to content
        </a>
        {/* On a phone site.js folds the navigation behind the Menu button (shown only then); without
            scripts the links stay listed. The account (sign in or out) and the requests waiting for
            the person stay in view: they are what a phone's visitor looks for first. */}
        <header class="site">
          <div class="bar">
            <a class="brand" href="/">
              {theme.logoUrl ? <img class="brand-logo" src={theme.logoUrl} alt={ctx.siteName} /> : ctx.siteName}
            </a>
            <button type="button" class="menu-toggle" aria-expanded="false" aria-controls="site-menu">
              Menu
            </button>
            <nav id="site-menu" class="site-menu" aria-label="Site">
              <a href="/search">Search</a>
              <a href="/communities">Communities</a>
              {signedIn ? (
                <>
                  <a href="/uploads/new">New upload</a>
                  <a href="/me/uploads">My dashboard</a>
                  <a href="/account/settings/profile">Settings</a>
                  {ctx.actor.kind === "user" && ctx.actor.isAdmin ? <a href="/administration">Administration</a> : null}
                </>
              ) : null}
            </nav>
            <div class="account">
              {signedIn ? (
                <>
                  {ctx.awaitingRequests ? (
                    <a class="requests-badge" href="/me/requests">
                      Requests <span class="count">{ctx.awaitingRequests}</span>
                      <span class="sr-only"> waiting for you</span>
                    </a>
                  ) : null}
                  <form class="inline" method="post" action="/logout">
                    <input type="hidden" name="csrf" value={ctx.actor.csrf ?? ""} />
                    <button class="link" type="submit">
                      Sign out{ctx.userName ? <span class="account-name">{` (${ctx.userName})`}</span> : ""}
                    </button>
                  </form>
                </>
              ) : (
                <a href={`/login?next=${encodeURIComponent(ctx.here)}`}>Sign in</a>
              )}
            </div>
          </div>
        </header>
        <main id="content">{children}</main>
        <footer class="site">
          <p>
            {ctx.siteName} · <a href="/api/docs">REST API</a> · <a href="/oai2d?verb=Identify">OAI-PMH</a>
          </p>
          {theme.footerLinks.length ? (
            <nav aria-label="About this site">
              <ul class="footer-links">
                {theme.footerLinks.map((link) => (
                  <li>
                    <a href={link.url}>{link.title}</a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </footer>
      </body>
    </html>
  );
}

/** A deleted record's tombstone (records/deletion.ts): why it was removed, when, and how to cite it. */
function Tombstone({ tombstone }: { tombstone: Record<string, any> }) {
  const rows: [string, unknown][] = [
    ["Reason", tombstone.removal_reason?.title?.en ?? tombstone.removal_reason?.id],
    ["Note", tombstone.note],
    ["Removed on", tombstone.removal_date && String(tombstone.removal_date).slice(0, 10)],
    ["Citation", tombstone.citation_text],
  ];
  return (
    <dl class="tombstone">
      {rows
        .filter(([, value]) => value)
        .map(([term, value]) => (
          <>
            <dt>{term}</dt>
            <dd>{String(value)}</dd>
          </>
        ))}
    </dl>
  );
}

/** The page for a refusal or a missing thing: its status and what to do next (a deleted record's tombstone). */
export function ErrorPage({ ctx, status, message, tombstone }: { ctx: PageContext; status: number; message: string; tombstone?: Record<string, any> }) {
  const titles: Record<number, string> = { 401: "Sign in needed", 403: "Not allowed", 404: "Not found", 410: tombstone ? "Record deleted" : "Gone", 429: "Too many attempts" };
  const title = titles[status] ?? (status >= 500 ? "Something went wrong" : "That did not work");
  return (
    <Layout ctx={ctx} title={title}>
      <h1>{title}</h1>
      <p>{message}</p>
      {tombstone ? <Tombstone tombstone={tombstone} /> : null}
      {status === 401 && ctx.actor.kind !== "user" ? (
        <p>
          <a class="button" href={`/login?next=${encodeURIComponent(ctx.here)}`}>
            Sign in
          </a>
        </p>
      ) : null}
      <p>
        <a href="/">Front page</a> · <a href="/search">Search records</a>
      </p>
    </Layout>
  );
}
