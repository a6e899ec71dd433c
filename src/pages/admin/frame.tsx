// The administration's frame: the one list of its screens (its navigation), the gate that makes it
// a 404 for everyone but administrators, the mail-off banner, and the parts its screens share
// (a pager, a confirmation step, dates and sizes).
import type { Actor } from "../../core/actor";
import { HttpError, notFound } from "../../core/errors";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { CsrfField } from "../forms";
import type { Child, Node } from "../jsx-runtime";
import { Layout, type PageContext } from "../layout";

export const ADMIN = "/administration";

/**
 * The administration's screens, in the order of its navigation. A new screen (Users, Records,
 * Communities, Vocabularies…) is one line here and one page group in routes.ts.
 */
export const ADMIN_SCREENS: { path: string; label: string }[] = [
  { path: `${ADMIN}/users`, label: "Users" },
  { path: `${ADMIN}/records`, label: "Records" },
  { path: `${ADMIN}/communities`, label: "Communities" },
  { path: `${ADMIN}/oai-sets`, label: "OAI-PMH sets" },
  { path: `${ADMIN}/vocabularies`, label: "Vocabularies" },
  { path: `${ADMIN}/health`, label: "Health" },
  { path: `${ADMIN}/mail`, label: "Mail" },
  { path: `${ADMIN}/jobs`, label: "Jobs" },
  { path: `${ADMIN}/backups`, label: "Backups" },
  { path: `${ADMIN}/statistics`, label: "Statistics" },
  { path: `${ADMIN}/audit`, label: "Audit log" },
];

/** What an unknown address answers: the administration does not exist for anyone else. */
export const NOT_FOUND_MESSAGE = "The requested URL was not found on the server.";

/**
 * Lets administrators through; anyone else (guests, signed-in people, a token without the role)
 * gets the ordinary 404, before any form is read. The services check the role again themselves.
 */
export function requireAdminPage(actor: Actor): void {
  if (actor.kind !== "user" || !actor.isAdmin) throw notFound(NOT_FOUND_MESSAGE);
}

/** A path's id: a positive whole number, or the 404 of a thing that does not exist. */
export function idOf(raw: string, what: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound(`No ${what} with id ${raw}.`);
  return id;
}

export const when = (ms: number | null | undefined) => (ms === null || ms === undefined ? "—" : new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC");

/** 1536 -> "1.5 KiB". */
export function bytes(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A query string of the given parameters, empty ones left out (`?a=1&b=2`, or ""). */
export function queryOf(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export interface AdminPageProps {
  ctx: PageContext;
  title: string;
  /** The screen's path in ADMIN_SCREENS (marks the navigation). */
  screen: string;
  /** MAIL_SERVER is empty: every administration screen says so. */
  mailOff: boolean;
  notice?: string;
  /** The screen's own scripts (registered asset names). */
  scripts?: string[];
  children?: Child;
}

export function AdminPage({ ctx, title, screen, mailOff, notice, scripts, children }: AdminPageProps) {
  return (
    <Layout ctx={ctx} title={`${title} · Administration`} scripts={scripts}>
      <div class="admin">
        <p class="muted admin-kicker">Administration</p>
        <h1>{title}</h1>
        <nav class="tabs" aria-label="Administration">
          {ADMIN_SCREENS.map(({ path, label }) => (
            <a href={path} aria-current={path === screen ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        {mailOff ? (
          <p class="notice admin-banner" role="note">
            Mail is off: notifications wait in the outbox and nobody receives them until MAIL_SERVER is set.
          </p>
        ) : null}
        {notice ? (
          <p class="notice ok" role="status">
            {notice}
          </p>
        ) : null}
        {children}
      </div>
    </Layout>
  );
}

/** Previous/next links of a list, with where the list stands. */
export function AdminPager({ page, size, total, href }: { page: number; size: number; total: number; href: (page: number) => string }) {
  const last = Math.max(1, Math.ceil(total / size));
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? (
        <a href={href(Math.min(page - 1, last))} rel="prev">
          Previous
        </a>
      ) : null}
      <span>
        Page {page} of {last} ({total} in all)
      </span>
      {page < last ? (
        <a href={href(page + 1)} rel="next">
          Next
        </a>
      ) : null}
    </nav>
  );
}

/** The confirmation step of a destructive action: what it does, a button that posts it, and the way back. */
export function ConfirmStep(props: { ctx: PageContext; action: string; question: string; detail?: Child; button: string; back: string }) {
  return (
    <section class="card" aria-labelledby="confirm-heading">
      <h2 id="confirm-heading">{props.question}</h2>
      {props.detail}
      <form method="post" action={props.action}>
        <CsrfField ctx={props.ctx} />
        <div class="actions">
          <button type="submit" class="danger">
            {props.button}
          </button>
          <a href={props.back}>Cancel, go back</a>
        </div>
      </form>
    </section>
  );
}

/** A table that scrolls sideways by itself on a narrow screen rather than the page. */
export const TableBox = ({ label, children }: { label: string; children?: Child }) => (
  <section class="table-box" aria-label={label} tabindex={0}>
    {children}
  </section>
);

/**
 * Runs an administration page's handler for an administrator; anyone else gets the 404 page
 * first (before the form or its CSRF token is looked at), and a service's refusal its error page.
 */
export async function renderAdmin(deps: PagesDeps, actor: Actor, request: Request, handler: (ctx: PageContext) => Node | Response | Promise<Node | Response>) {
  const ctx = await pageContextOf(deps, actor, request);
  return renderOrError(ctx, async () => {
    requireAdminPage(actor);
    try {
      return await handler(ctx);
    } catch (error) {
      // A bad filter or page number: the error page names the parameter and what it takes.
      if (error instanceof HttpError && error.status === 400 && error.errors?.length) {
        throw new HttpError(400, [error.message, ...error.errors.map((e) => `${e.field}: ${e.messages.join(" ")}`)].join(" "));
      }
      throw error;
    }
  });
}

/** A screen's facts as a definition list; `classOf` styles one value (an error, a path). */
export function Facts({ facts, classOf }: { facts: [string, Child][]; classOf?: (term: string, value: Child) => string | undefined }) {
  return (
    <dl class="facts">
      {facts.map(([term, value]) => (
        <>
          <dt>{term}</dt>
          <dd class={classOf?.(term, value)}>{value}</dd>
        </>
      ))}
    </dl>
  );
}

/** A filter's choices, "Any" (the empty value) first. */
export function AnyOf({ id, name, value, choices, children }: { id: string; name: string; value: string; choices: Record<string, string>; children?: Child }) {
  return (
    <select id={id} name={name}>
      <option value="" selected={value === ""}>
        Any
      </option>
      {Object.entries(choices).map(([choice, label]) => (
        <option value={choice} selected={value === choice}>
          {label}
        </option>
      ))}
      {children}
    </select>
  );
}
