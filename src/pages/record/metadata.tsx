// The record's metadata as people read it: creators with their ORCID/ROR links, the description
// (the sanitised HTML the record holds), dates, keywords, related identifiers, funding, licences.
import { list, type JsonObject } from "../../core/json";
import type { Child } from "../jsx-runtime";
import { identifierUrl, titleOf } from "./links";

type Json = JsonObject;

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/** An identifier as a link when it resolves, else as text. */
function Identifier({ scheme, identifier, label }: { scheme: unknown; identifier: unknown; label?: string }) {
  const url = identifierUrl(scheme, identifier);
  const shown = label ?? text(identifier);
  return url ? <a href={url}>{shown}</a> : <span class="mono">{shown}</span>;
}

/** One creator or contributor: the name, its ORCID (or ROR) link, role and affiliations (ROR-linked when they have an id). */
function Person({ entry }: { entry: Json }) {
  const p: Json = entry.person_or_org ?? {};
  const name = text(p.name) || [text(p.family_name), text(p.given_name)].filter(Boolean).join(", ");
  const ids = list(p.identifiers)
    .filter((i) => i?.scheme === "orcid" || i?.scheme === "ror")
    .map((i) => ({ scheme: String(i.scheme), identifier: text(i.identifier), url: identifierUrl(i.scheme, i.identifier) }))
    .filter((i): i is { scheme: string; identifier: string; url: string } => i.url !== null);
  const affiliations = list(entry.affiliations).filter((a) => text(a?.name) || text(a?.id));
  const role = entry.role ? titleOf(entry.role) : "";
  return (
    <li>
      <span class="person">{name}</span>
      {ids.map((i) => (
        <>
          {" "}
          <a class={`pid ${i.scheme}`} href={i.url} title={`${name}: ${i.scheme.toUpperCase()} ${i.identifier}`}>
            {`${i.scheme === "orcid" ? "ORCID" : "ROR"} ${i.identifier}`}
          </a>
        </>
      ))}
      {role ? <span class="muted"> ({role})</span> : null}
      {affiliations.length ? (
        <span class="affiliations">
          {" – "}
          {affiliations.map((a, i) => (
            <>
              {i > 0 ? "; " : ""}
              <Affiliation entry={a} />
            </>
          ))}
        </span>
      ) : null}
    </li>
  );
}

/** An affiliation: its name, linked to its ROR record when it has an id (affiliations are ROR's organisations). */
function Affiliation({ entry }: { entry: Json }) {
  const url = identifierUrl("ror", entry.id);
  const name = text(entry.name) || text(entry.id);
  return url ? <a href={url}>{name}</a> : <>{name}</>;
}

export function People({ entries }: { entries: Json[] }) {
  if (!entries.length) return null;
  return (
    <ul class="people">
      {entries.map((entry) => (
        <Person entry={entry} />
      ))}
    </ul>
  );
}

/** The description and additional descriptions: HTML sanitised when the record was saved. */
export function Descriptions({ metadata }: { metadata: Json }) {
  const extra = list(metadata.additional_descriptions).filter((d) => text(d?.description));
  if (!text(metadata.description) && !extra.length) return null;
  return (
    <section aria-labelledby="description-heading">
      <h2 id="description-heading">Description</h2>
      {text(metadata.description) ? <div class="description" dangerouslySetInnerHTML={{ __html: metadata.description }} /> : null}
      {extra.map((d) => (
        <>
          <h3>{titleOf(d.type) || "Other"}</h3>
          <div class="description" dangerouslySetInnerHTML={{ __html: d.description }} />
        </>
      ))}
    </section>
  );
}

function Row({ term, children }: { term: string; children?: Child }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** Dates, keywords, languages, identifiers, related works, funding, references: the rows that have values. */
export function Details({ record }: { record: Json }) {
  const m: Json = record.metadata ?? {};
  const dates = list(m.dates).filter((d) => text(d?.date));
  const keywords = list(m.subjects).filter((s) => text(s?.subject));
  const languages = list(m.languages).filter((l) => l?.id);
  const identifiers = list(m.identifiers).filter((i) => text(i?.identifier));
  const related = list(m.related_identifiers).filter((r) => text(r?.identifier));
  const funding = list(m.funding).filter((f) => f?.funder || f?.award);
  const references = list(m.references).filter((r) => text(r?.reference));
  const doi = text(record.pids?.doi?.identifier);
  return (
    <section aria-labelledby="details-heading">
      <h2 id="details-heading">Details</h2>
      <dl class="details">
        {doi ? <Row term="DOI">{<Identifier scheme="doi" identifier={doi} />}</Row> : null}
        {text(m.publication_date) ? <Row term="Publication date">{text(m.publication_date)}</Row> : null}
        {dates.map((d) => (
          <Row term={`${titleOf(d.type) || "Date"} date`}>
            {text(d.date)}
            {text(d.description) ? <span class="muted"> ({text(d.description)})</span> : null}
          </Row>
        ))}
        {m.resource_type ? <Row term="Resource type">{titleOf(m.resource_type)}</Row> : null}
        {text(m.publisher) ? <Row term="Publisher">{text(m.publisher)}</Row> : null}
        {text(m.version) ? <Row term="Version">{text(m.version)}</Row> : null}
        {languages.length ? <Row term="Languages">{languages.map((l) => titleOf(l)).join(", ")}</Row> : null}
        {keywords.length ? <Row term="Keywords">{keywords.map((s) => text(s.subject)).join("; ")}</Row> : null}
        {list(m.sizes).length ? <Row term="Size">{list(m.sizes).map(String).join("; ")}</Row> : null}
        {list(m.formats).length ? <Row term="Formats">{list(m.formats).map(String).join("; ")}</Row> : null}
        {text(m.copyright) ? <Row term="Copyright">{text(m.copyright)}</Row> : null}
        {identifiers.length ? (
          <Row term="Other identifiers">
            <ul class="plain">
              {identifiers.map((i) => (
                <li>
                  {String(i.scheme ?? "").toUpperCase()} <Identifier scheme={i.scheme} identifier={i.identifier} />
                </li>
              ))}
            </ul>
          </Row>
        ) : null}
        {related.length ? (
          <Row term="Related works">
            <ul class="plain">
              {related.map((r) => (
                <li>
                  {titleOf(r.relation_type) || "Related to"}: <Identifier scheme={r.scheme} identifier={r.identifier} />
                  {r.resource_type ? <span class="muted"> ({titleOf(r.resource_type)})</span> : null}
                </li>
              ))}
            </ul>
          </Row>
        ) : null}
        {funding.length ? (
          <Row term="Funding">
            <ul class="plain">
              {funding.map((f) => (
                <Funding entry={f} />
              ))}
            </ul>
          </Row>
        ) : null}
        {references.length ? (
          <Row term="References">
            <ul class="plain">
              {references.map((r) => (
                <li>{text(r.reference)}</li>
              ))}
            </ul>
          </Row>
        ) : null}
      </dl>
    </section>
  );
}

/** A funder and its award: "European Commission: Open science for glaciers (GLACIO, 101004490)", linked to the award's page when it has one. */
function Funding({ entry }: { entry: Json }) {
  const funder = text(entry.funder?.name) || titleOf(entry.funder);
  const award: Json = entry.award ?? {};
  const title = award.title ? titleOf(award) : "";
  const codes = [text(award.acronym), text(award.number)].filter(Boolean).join(", ");
  const url = list(award.identifiers)
    .map((i) => identifierUrl(i?.scheme, i?.identifier))
    .find(Boolean);
  const label = [title, codes ? `(${codes})` : ""].filter(Boolean).join(" ");
  return (
    <li>
      {funder}
      {label ? ": " : ""}
      {label ? url ? <a href={url}>{label}</a> : label : null}
    </li>
  );
}

/** The licences: title linked to its text, and its description. */
export function Licences({ rights }: { rights: Json[] }) {
  if (!rights.length) return null;
  return (
    <section class="card" aria-labelledby="licence-heading">
      <h2 id="licence-heading">Licence</h2>
      <ul class="plain">
        {rights.map((r) => {
          const url = identifierUrl("url", r.props?.url) ?? identifierUrl("url", r.link);
          const title = titleOf(r) || text(r.id);
          const description = r.description ? titleOf({ title: r.description }) : "";
          return (
            <li>
              {url ? <a href={url}>{title}</a> : title}
              {description ? <p class="muted small">{description}</p> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
