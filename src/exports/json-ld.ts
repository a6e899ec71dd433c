// Schema.org JSON-LD export (dataset search engines), after InvenioRDM's schemaorg/schema.py.
import { compact } from "../core/compact";
import { stripHtml } from "../core/html";
import { list, ownEntry, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { citeAsUrl, edtfParts, filesOf, landingPage, nonBlank, personOf, plainDescription, recordDoi, titleOf, vocabProps, type Person } from "./record-fields";
import type { ExportContext, ExportFormat } from "./types";

export const jsonLdFormat: ExportFormat = {
  id: "json-ld",
  label: "JSON-LD (Schema.org)",
  aliases: ["schemaorg_jsonld"],
  mediaTypes: ["application/ld+json"],
  extension: "json",
  render: (record, ctx) => JSON.stringify(schemaOrg(record, ctx)),
};

// Identifier schemes that are links as they are (sameAs takes URLs only).
const URL_SCHEMES: Record<string, (id: string) => string> = {
  doi: (id) => `https://doi.org/${id}`,
  url: (id) => id,
  handle: (id) => `https://hdl.handle.net/${id}`,
  arxiv: (id) => `https://arxiv.org/abs/${id.replace(/^arxiv:/i, "")}`,
  pmid: (id) => `https://pubmed.ncbi.nlm.nih.gov/${id}`,
  purl: (id) => id,
  w3id: (id) => id,
};

export function schemaOrg(record: RecordDocument, ctx: ExportContext): JsonObject {
  const metadata: JsonObject = record.metadata ?? {};
  const type = vocabProps(ctx, "resourcetypes", metadata.resource_type)["schema.org"];
  const doi = recordDoi(record);
  const out: JsonObject = {
    "@context": "http://schema.org",
    "@id": citeAsUrl(record, ctx),
    "@type": nonBlank(type)?.replace(/^https?:\/\/schema\.org\//, "") ?? "CreativeWork",
    identifier: doi ? ctx.doiUrl(doi) : landingPage(record, ctx),
    name: nonBlank(metadata.title),
    description: plainDescription(record),
    creator: list(metadata.creators).map((c) => agent(personOf(c))),
    author: list(metadata.creators).map((c) => agent(personOf(c))),
    editor: list(metadata.contributors).map((c) => agent(personOf(c))),
    publisher: { "@type": "Organization", name: nonBlank(metadata.publisher) ?? ctx.siteName },
    datePublished: edtfParts(metadata.publication_date).length ? metadata.publication_date.split("/")[0] : undefined,
    dateCreated: datedAs(metadata, "created"),
    dateModified: nonBlank(record.updated),
    temporal: list(metadata.dates)
      .map((d) => nonBlank(d?.date))
      .filter(Boolean),
    keywords: list(metadata.subjects)
      .map((s) => nonBlank(s?.subject) ?? titleOf(s))
      .filter(Boolean),
    inLanguage: list(metadata.languages).map((l) => ({ "@type": "Language", alternateName: l.id, name: titleOf(l) ?? l.id })),
    version: nonBlank(metadata.version),
    license: list(metadata.rights)
      .map((r) => nonBlank(vocabProps(ctx, "licenses", r).url) ?? nonBlank(r?.link))
      .filter(Boolean),
    contentSize: list(metadata.sizes)[0],
    encodingFormat: list(metadata.formats),
    measurementTechnique: methods(metadata),
    funding: list(metadata.funding).map((f) => funding(f, ctx)),
    spatialCoverage: list(metadata.locations?.features).map(place),
    sameAs: list(metadata.identifiers).map(asUrl).filter(Boolean),
    citation: list(metadata.related_identifiers)
      .filter((r) => r?.relation_type?.id === "cites")
      .map(asUrl)
      .filter(Boolean),
    url: landingPage(record, ctx),
    distribution: filesOf(record, ctx).map((f) => ({
      "@type": "DataDownload",
      name: f.key,
      contentUrl: f.url,
      encodingFormat: f.mimetype,
      contentSize: f.size === undefined ? undefined : String(f.size),
    })),
  };
  return compact(out);
}

// creator/author/editor: Person or Organization with the ORCID (or ROR...) URL as @id.
function agent(p: Person): JsonObject {
  const ror = p.identifiers.find((i) => i.scheme === "ror")?.identifier;
  return {
    "@type": p.personal ? "Person" : "Organization",
    "@id": p.orcid ? `https://orcid.org/${p.orcid}` : ror ? `https://ror.org/${ror}` : undefined,
    name: p.name,
    givenName: p.given,
    familyName: p.family,
    affiliation: p.affiliations.map((name) => ({ "@type": "Organization", name })),
  };
}

const datedAs = (metadata: JsonObject, type: string) => nonBlank(list(metadata.dates).find((d) => d?.type?.id === type)?.date);

// measurementTechnique: the additional descriptions of type `methods`, as text.
function methods(metadata: JsonObject): string | undefined {
  const texts = list(metadata.additional_descriptions)
    .filter((d) => d?.type?.id === "methods")
    .map((d) => stripHtml(String(d.description ?? "")));
  return texts.filter(Boolean).join(" ") || undefined;
}

// funding: a MonetaryGrant per award (or per funder when there is no award).
function funding(f: JsonObject, ctx: ExportContext): JsonObject {
  const funder: JsonObject = f.funder?.id ? { ...(ctx.lookup("funders", f.funder.id) ?? {}), ...f.funder } : (f.funder ?? {});
  const award: JsonObject = f.award?.id ? { ...(ctx.lookup("awards", f.award.id) ?? {}), ...f.award } : (f.award ?? {});
  const ror = list(funder.identifiers).find((i) => i?.scheme === "ror")?.identifier;
  return {
    "@type": "MonetaryGrant",
    identifier: nonBlank(award.number),
    name: titleOf(award.title ? { title: award.title } : undefined),
    funder: { "@type": "Organization", "@id": ror ? `https://ror.org/${ror}` : undefined, name: nonBlank(funder.name) ?? titleOf(funder) },
  };
}

// spatialCoverage: a Place, with GeoCoordinates for a point or a GeoShape box for a polygon.
function place(feature: JsonObject): JsonObject {
  const g = feature?.geometry;
  const out: JsonObject = { "@type": "Place", name: nonBlank(feature?.place), description: nonBlank(feature?.description) };
  if (g?.type === "Point") out.geo = { "@type": "GeoCoordinates", longitude: g.coordinates?.[0], latitude: g.coordinates?.[1] };
  if (g?.type === "Polygon")
    out.geo = {
      "@type": "GeoShape",
      polygon: list(g.coordinates?.[0])
        .map((c) => `${c[1]},${c[0]}`)
        .join(" "),
    };
  return out;
}

function asUrl(id: JsonObject): string | undefined {
  const make = ownEntry(URL_SCHEMES, id?.scheme);
  return make && nonBlank(id.identifier) ? make(id.identifier) : undefined;
}
