// A record as a search result card (title, creators, date, resource type, access, a snippet of the
// description as plain text), and running a search so that a refused query becomes a message.
import { HttpError } from "../../core/errors";
import { stripHtml } from "../../core/html";
import type { SearchProblem } from "./parts";

type Json = Record<string, any>;

const ACCESS_LABELS: Record<string, string> = { open: "Open", embargoed: "Embargoed", restricted: "Restricted", "metadata-only": "Metadata-only" };
const SNIPPET_LENGTH = 280;
const CREATORS_SHOWN = 5;

/** The description as one line of plain text, cut at a word near `max` characters. */
export function snippetOf(html: unknown, max = SNIPPET_LENGTH): string {
  if (typeof html !== "string" || !html) return "";
  const text = stripHtml(html, { separateWords: true }).replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

export function AccessBadge({ access }: { access: Json | undefined }) {
  const status = String(access?.status ?? "open");
  const until = access?.embargo?.active && access.embargo.until ? ` until ${String(access.embargo.until)}` : "";
  return <span class={`badge ${status}`}>{`${ACCESS_LABELS[status] ?? status}${status === "embargoed" ? until : ""}`}</span>;
}

/** A record hit as the record search returns it; `level` is the heading level of its title. */
export function RecordCard({ hit, level = 3 }: { hit: Json; level?: 2 | 3 }) {
  const m = (hit.metadata ?? {}) as Json;
  const creators = ((m.creators ?? []) as Json[]).map((c) => String(c.person_or_org?.name ?? "")).filter(Boolean);
  const type = m.resource_type ? String(m.resource_type.title?.en ?? m.resource_type.id ?? "") : "";
  const snippet = snippetOf(m.description);
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <article class="card result">
      <Heading>
        <a href={`/records/${encodeURIComponent(String(hit.id))}`}>{String(m.title ?? hit.id)}</a>
      </Heading>
      <p class="result-meta">
        <AccessBadge access={hit.access} /> {type ? <span>{type}</span> : null}
        {m.publication_date ? <span>Published {String(m.publication_date)}</span> : null}
        {m.version ? <span>Version {String(m.version)}</span> : null}
      </p>
      {creators.length ? (
        <p class="creators">
          {creators.slice(0, CREATORS_SHOWN).join("; ")}
          {creators.length > CREATORS_SHOWN ? `; and ${creators.length - CREATORS_SHOWN} more` : ""}
        </p>
      ) : null}
      {snippet ? <p class="snippet">{snippet}</p> : null}
    </article>
  );
}

/** What a search page shows: the service's answer, or (for a query it refuses, 400, or a search that ran out of time, 503) the message. */
export interface SearchOutcome {
  result: Json | null;
  problem?: SearchProblem;
  status: number;
}

export async function runSearch(search: () => unknown): Promise<SearchOutcome> {
  try {
    return { result: (await search()) as Json, status: 200 };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 400 || error.status === 503))
      return { result: null, problem: { message: error.message, errors: error.errors }, status: error.status };
    throw error;
  }
}
