// MARCXML (MARC 21 slim 1.2, bibliographic), following InvenioRDM's marcxml schema tag by tag.
import { stripHtml } from "../../core/html";
import { list, type JsonObject } from "../../core/json";
import type { RecordDocument } from "../../core/record-document";
import { filesOf, landingPage, nonBlank, personOf, recordDoi, titleOf, vocabProps } from "../record-fields";
import type { ExportContext, ExportFormat } from "../types";
import { XSI_NAMESPACE, renderXml, type XmlTree } from "./document";
import { euRepoAccessRight } from "./dublin-core";

/** [subfield code, value]; blank values are dropped. */
type Subfield = [string, unknown];

export const MARC_NAMESPACE = "http://www.loc.gov/MARC21/slim";
export const MARC_SCHEMA_LOCATION = "http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd";

/** `{record: ...}`: the MARC21 slim `<record>`, namespaces and schema location on it. */
export function marcxmlRecord(record: RecordDocument, ctx: ExportContext): XmlTree {
  const m: JsonObject = record.metadata ?? {};
  const datafields = [
    ...identifierFields(record), // 024
    field(
      "041",
      " ",
      " ",
      list(m.languages).map((l): Subfield => ["a", l.id]),
    ), // 041 $a language code
    ...peopleFields(record, ctx), // 100 first creator, 700 other creators and contributors
    field("245", list(m.creators).length ? "1" : "0", "0", [["a", m.title]]), // 245 $a title
    ...list(m.additional_titles).map((t) => field("246", "1", " ", [["a", t.title]])), // 246 varying form of title
    field("250", " ", " ", [["a", m.version]]), // 250 $a edition (version)
    field("260", " ", " ", [
      ["b", m.publisher],
      ["c", m.publication_date],
    ]), // 260 $b publisher, $c date of publication
    ...list(m.sizes).map((size) => field("300", " ", " ", [["a", size]])), // 300 $a extent
    ...list(m.formats).map((format) => field("347", " ", " ", [["b", format]])), // 347 $b encoding format
    ...list(m.additional_descriptions).map((d) => field("500", " ", " ", [["a", stripHtml(d.description ?? "")]])), // 500 general note
    field("502", " ", " ", [["c", record.custom_fields?.["thesis:university"]]]), // 502 $c degree-granting institution
    field("520", " ", " ", [["a", stripHtml(m.description ?? "")]]), // 520 $a summary
    ...list(m.funding).map((f) => fundingField(f, ctx)), // 536 funding information
    ...rightsFields(record, ctx), // 540 terms of use, 542 copyright status
    ...subjectFields(m), // 650 controlled subjects, 653 keywords
    ...relationFields(record, ctx), // 773 related identifiers and the concept DOI
    ...linkFields(record, ctx), // 856 landing page and files
    field("909", "c", "o", [["o", record.pids?.oai?.identifier]]), // 909 co $o OAI identifier (Invenio's local 909CO; the slim schema only allows lower-case indicators)
    ...list(m.references).map((r) =>
      field("999", "c", "5", [
        ["x", r.reference],
        ["a", r.identifier ? `${r.scheme ?? "other"}:${r.identifier}` : undefined],
      ]),
    ), // 999 c5 references (Invenio's 999C5)
    resourceTypeField(m, ctx), // 980 $a type $b subtype (Invenio collection)
  ].filter((f): f is XmlTree => f !== undefined);
  return {
    record: {
      "@_xmlns": MARC_NAMESPACE,
      "@_xmlns:xsi": XSI_NAMESPACE,
      "@_xsi:schemaLocation": `${MARC_NAMESPACE} ${MARC_SCHEMA_LOCATION}`,
      "@_type": "Bibliographic",
      leader: leader(m, ctx),
      controlfield: [
        { "@_tag": "001", "#text": String(record.id) }, // 001 control number
        ...(record.updated ? [{ "@_tag": "005", "#text": marcTimestamp(String(record.updated)) }] : []), // 005 latest transaction
      ],
      datafield: datafields,
    },
  };
}

/**
 * Leader/00-23: length and base address left for the reader (zeros), status n(ew), type of record
 * from the resource type, m(onograph), Unicode (a), 2 indicators, 2-char subfield codes, encoding
 * level z (not applicable), u(nknown) cataloguing form, 4500 entry map.
 */
function leader(m: JsonObject, ctx: ExportContext): string {
  const type = vocabProps(ctx, "resourcetypes", m.resource_type).type ?? String(m.resource_type?.id ?? "").split("-")[0];
  // 06: k two-dimensional nonprojectable graphic, g projected medium, m computer file, a language material
  const typeOfRecord = type === "image" ? "k" : type === "video" ? "g" : type === "dataset" || type === "software" ? "m" : "a";
  return `00000n${typeOfRecord}m a2200000zu 4500`;
}

/** `2024-06-02 10:00:00.000000` -> `20240602100000.0` (005: yyyymmddhhmmss.f). */
function marcTimestamp(updated: string): string {
  const digits = updated.replace(/\D/g, "");
  return `${digits.slice(0, 14).padEnd(14, "0")}.${digits[14] ?? "0"}`;
}

// 024 7_ $a identifier $2 source: the DOI, then alternate identifiers
function identifierFields(record: RecordDocument): (XmlTree | undefined)[] {
  const doi = recordDoi(record);
  return [
    doi
      ? field("024", "7", " ", [
          ["a", doi],
          ["2", "doi"],
        ])
      : undefined,
    ...list(record.metadata?.identifiers).map((i) =>
      field("024", "7", " ", [
        ["a", i.identifier],
        ["2", i.scheme],
      ]),
    ),
  ];
}

// 100/700: $a name, $0 (scheme)identifier, $u affiliation, $4 relator code, $e relator term
function peopleFields(record: RecordDocument, ctx: ExportContext): (XmlTree | undefined)[] {
  const m: JsonObject = record.metadata ?? {};
  const people = [...list(m.creators).map((c) => ({ entry: c, roles: "creatorsroles" })), ...list(m.contributors).map((c) => ({ entry: c, roles: "contributorsroles" }))];
  return people.map(({ entry, roles }, index) => {
    const person = personOf(entry);
    const subfields: Subfield[] = [["a", person.name]];
    for (const id of person.identifiers) subfields.push(["0", `(${id.scheme})${id.identifier}`]);
    if (person.affiliations[0]) subfields.push(["u", person.affiliations[0]]); // $u is not repeatable
    const role = vocabProps(ctx, roles, entry.role).marc;
    if (role) subfields.push(["4", role]);
    // ind1: 1 = surname first (persons), 0 = name in direct order (organisations)
    return field(index === 0 ? "100" : "700", person.personal ? "1" : "0", " ", subfields);
  });
}

// 536 $a funder (and award title), $c award number
function fundingField(f: JsonObject, ctx: ExportContext): XmlTree | undefined {
  const funder = f.funder?.id ? { ...(ctx.lookup("funders", f.funder.id) ?? {}), ...f.funder } : (f.funder ?? {});
  const awardTitle = titleOf(f.award?.title ? { title: f.award.title } : undefined);
  return field("536", " ", " ", [
    ["a", [funder.name ?? titleOf(funder), awardTitle].filter(Boolean).join(": ")],
    ["c", f.award?.number],
  ]);
}

// 540 $a terms / licence title, $u licence URL, $f licence id; 542 $l copyright status (access right), $f statement
function rightsFields(record: RecordDocument, ctx: ExportContext): (XmlTree | undefined)[] {
  const m: JsonObject = record.metadata ?? {};
  const licences = list(m.rights).map((r) => {
    const entry = r.id ? { ...(ctx.lookup("licenses", r.id) ?? {}), ...r } : r;
    return field("540", " ", " ", [
      ["a", titleOf(entry)],
      ["f", r.id],
      ["u", entry.props?.url ?? entry.link],
    ]);
  });
  return [
    ...licences,
    field("542", " ", " ", [
      ["f", m.copyright],
      ["l", euRepoAccessRight(record)],
    ]),
  ];
}

// 650 _7 $a term $0 URI $2 source (controlled subjects); 653 $a uncontrolled keyword
function subjectFields(m: JsonObject): (XmlTree | undefined)[] {
  return list(m.subjects).map((s) =>
    s.id
      ? field("650", " ", "7", [
          ["a", s.subject],
          ["0", s.id],
          ["2", s.scheme ?? "local"],
        ])
      : field("653", " ", " ", [["a", s.subject]]),
  );
}

// 773 $a identifier, $i relation, $n scheme (InvenioRDM's use); the concept DOI as isVersionOf
function relationFields(record: RecordDocument, ctx: ExportContext): (XmlTree | undefined)[] {
  const out = list(record.metadata?.related_identifiers).map((r) => {
    const relation = titleOf(r.relation_type) ?? titleOf(ctx.lookup("relationtypes", r.relation_type?.id ?? "") ?? undefined) ?? r.relation_type?.id;
    return field("773", " ", " ", [
      ["a", r.identifier],
      ["i", relation],
      ["n", r.scheme],
    ]);
  });
  const parentDoi = nonBlank(record.parent?.pids?.doi?.identifier);
  if (parentDoi && parentDoi !== recordDoi(record))
    out.push(
      field("773", " ", " ", [
        ["a", parentDoi],
        ["i", "isVersionOf"],
        ["n", "doi"],
      ]),
    );
  return out;
}

// 856 40 electronic location: $u URL, $y link text; files add $s size, $z checksum, $q media type
function linkFields(record: RecordDocument, ctx: ExportContext): (XmlTree | undefined)[] {
  return [
    field("856", "4", "0", [
      ["u", landingPage(record, ctx)],
      ["y", "Landing page"],
    ]),
    ...filesOf(record, ctx).map((f) =>
      field("856", "4", " ", [
        ["s", f.size],
        ["z", f.checksum],
        ["u", f.url],
        ["q", f.mimetype],
        ["y", f.key],
      ]),
    ),
  ];
}

// 980 $a resource type, $b subtype (props marc21_type / marc21_subtype)
function resourceTypeField(m: JsonObject, ctx: ExportContext): XmlTree | undefined {
  const props = vocabProps(ctx, "resourcetypes", m.resource_type);
  return field("980", " ", " ", [
    ["a", props.marc21_type ?? m.resource_type?.id],
    ["b", props.marc21_subtype],
  ]);
}

/** A `<datafield>`; undefined when no subfield has a value (the schema wants at least one). */
function field(tag: string, ind1: string, ind2: string, subfields: Subfield[]): XmlTree | undefined {
  const kept = subfields
    .map(([code, value]) => [code, typeof value === "number" ? String(value) : nonBlank(value)] as const)
    .filter((s): s is readonly [string, string] => s[1] !== undefined);
  if (kept.length === 0) return undefined;
  return { "@_tag": tag, "@_ind1": ind1, "@_ind2": ind2, subfield: kept.map(([code, value]) => ({ "@_code": code, "#text": value })) };
}

export const marcxmlFormat: ExportFormat = {
  id: "marcxml",
  label: "MARCXML",
  aliases: ["xm"],
  mediaTypes: ["application/marcxml+xml"],
  extension: "xml",
  // marc21 is InvenioRDM's alias of the same format.
  oai: ["marcxml", "marc21"].map((prefix) => ({
    prefix,
    schema: MARC_SCHEMA_LOCATION,
    namespace: MARC_NAMESPACE,
    payload: (record: RecordDocument, ctx: ExportContext) => marcxmlRecord(record, ctx),
  })),
  render: (record, ctx) => renderXml(marcxmlRecord(record, ctx)),
};
