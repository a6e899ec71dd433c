// The CodeMeta, CFF and Data Package mappings on hand-built records: the edge cases the HTTP tests
// do not reach (name collisions, other hash algorithms, identifiers outside CFF's patterns,
// creators without name parts, embargoes).
import { describe, expect, test } from "bun:test";
import { parse as parseYaml } from "yaml";
import { cffFormat } from "../../src/exports/cff";
import { codemeta } from "../../src/exports/codemeta";
import { dataPackage } from "../../src/exports/datapackage";
import { exportContext, exportFiles, exportRecord, fullExportRecord, MINIMAL_EXPORT_METADATA } from "../helpers/export-records";

const ctx = exportContext();
const cff = (record: ReturnType<typeof exportRecord>) => parseYaml(cffFormat.render(record, ctx));

describe("Data Package resources", () => {
  test("names are lower case, unique and pattern-safe; a SHA-1 checksum keeps its algorithm", () => {
    const files = exportFiles("fghjk-67890");
    files.entries["Seals.CSV"] = { ...files.entries["seals.csv"], key: "Seals.CSV", links: {} };
    const pkg = dataPackage(exportRecord("fghjk-67890", MINIMAL_EXPORT_METADATA, { files }), ctx);
    expect(pkg.resources.map((r: any) => [r.name, r.title, r.hash, r.format])).toEqual([
      ["seals.csv", "seals.csv", "0123456789abcdef0123456789abcdef", "csv"],
      ["photo-1.jpg", "photo 1.jpg", "sha1:0123456789abcdef0123456789abcdef01234567", "jpg"],
      ["seals.csv-2", "Seals.CSV", "0123456789abcdef0123456789abcdef", "csv"],
    ]);
    // A file without a content link gets the API's content URL, key escaped.
    expect(pkg.resources[2].path).toBe("http://127.0.0.1:5000/api/records/fghjk-67890/files/Seals.CSV/content");
  });

  test("a licence whose SPDX id has a `+` goes by path and title only", () => {
    const pkg = dataPackage(exportRecord("abcde-00001", { ...MINIMAL_EXPORT_METADATA, rights: [{ id: "gpl-2.0+" }] }), ctx);
    expect(pkg.licenses).toEqual([{ path: "https://www.gnu.org/licenses/old-licenses/gpl-2.0-standalone.html", title: "GNU General Public License v2.0 or later" }]);
  });
});

describe("Citation File Format", () => {
  test("identifiers outside CFF's patterns become `other`; a malformed DOI is left out", () => {
    const metadata = {
      ...MINIMAL_EXPORT_METADATA,
      identifiers: [
        { scheme: "swh", identifier: "swh:1:rel:22ece559cc7cc2364edc5e5593d63ae8bd229f9f" },
        { scheme: "url", identifier: "ftp://example.org/data" },
        { scheme: "doi", identifier: "not a doi" },
      ],
    };
    const file = cff(exportRecord("abcde-00002", metadata, { pids: { doi: { identifier: "10.1234/<bad>" } } }));
    expect(file.doi).toBeUndefined();
    expect(file.identifiers).toEqual([
      { type: "swh", value: "swh:1:rel:22ece559cc7cc2364edc5e5593d63ae8bd229f9f" },
      { type: "url", value: "ftp://example.org/data" },
      { type: "other", value: "not a doi", description: "doi" },
    ]);
  });

  test("a person without name parts is an entity; without creators the publisher is the author; partial dates are not released dates", () => {
    const nameOnly = { ...MINIMAL_EXPORT_METADATA, creators: [{ person_or_org: { type: "personal", name: "Plato" } }], publication_date: "2023-09" };
    expect(cff(exportRecord("abcde-00003", nameOnly))).toMatchObject({ authors: [{ name: "Plato" }] });
    expect(cff(exportRecord("abcde-00003", nameOnly))["date-released"]).toBeUndefined();
    expect(cff(exportRecord("abcde-00004", { ...MINIMAL_EXPORT_METADATA, creators: [] })).authors).toEqual([{ name: "Cairn test repository" }]);
  });
});

describe("CodeMeta", () => {
  test("a computational notebook is SoftwareSourceCode; an active embargo gives embargoEndDate; a photo is schema:Photograph", () => {
    const embargo = { active: true, until: "2027-01-01", reason: null };
    const notebook = exportRecord(
      "abcde-00005",
      { ...MINIMAL_EXPORT_METADATA, resource_type: { id: "software-computationalnotebook" } },
      {
        access: { record: "public", files: "restricted", embargo, status: "embargoed" },
      },
    );
    expect(codemeta(notebook, ctx)).toMatchObject({ "@type": "SoftwareSourceCode", embargoEndDate: "2027-01-01" });
    expect(codemeta(notebook, ctx).isAccessibleForFree).toBeUndefined();
    const photo = codemeta(fullExportRecord(), ctx);
    expect(photo["@type"]).toBe("schema:Photograph");
    expect(photo.author[1]).toEqual({ "@type": "Organization", "@id": "https://ror.org/03yrm5c26", name: "Seal Watch" });
  });
});
