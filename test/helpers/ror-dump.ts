// Small ROR data dumps (schema v2) for the vocabulary import tests, and a local stand-in for the
// publisher: a release record answering a signposting linkset (InvenioRDM's way) or a records
// search, and the release's zip, made with Info-ZIP's `zip` (deflated, as ROR's are).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One organisation as ROR's v2 dump has it. */
export const rorOrg = (id: string, name: string, country = "GB") => ({
  id: `https://ror.org/${id}`,
  names: [
    { value: name, types: ["ror_display", "label"], lang: "en" },
    {
      value: name
        .split(" ")
        .map((w) => w[0])
        .join(""),
      types: ["acronym"],
      lang: null,
    },
  ],
  locations: [{ geonames_details: { country_code: country, name: "Somewhere" } }],
  external_ids: [{ type: "grid", all: [`grid.${id}`], preferred: `grid.${id}` }],
  status: "active",
  types: ["education"],
});

/** `n` organisations with ids `0test0NNN` (from `first`) and names "Wombat University NN" (from 01). */
export const rorOrgs = (n: number, prefix = "Wombat University", first = 1) =>
  Array.from({ length: n }, (_, i) => rorOrg(`0test${String(first + i).padStart(4, "0")}`, `${prefix} ${String(i + 1).padStart(2, "0")}`));

/** Writes a dump as ROR publishes it (a JSON array); its path. */
export function writeRorDump(dir: string, name: string, orgs: unknown[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(orgs, null, 1));
  return path;
}

/** A zip of the given files in `dir` (deflated); its path. */
export function zipFiles(dir: string, zipName: string, files: string[]): string {
  const out = Bun.spawnSync(["zip", "-q", "-9", zipName, ...files], { cwd: dir });
  if (out.exitCode !== 0) throw new Error(`zip failed: ${out.stderr.toString()}`);
  return join(dir, zipName);
}

export interface PublisherServer {
  /** The release record (linkset) URL: VOCABULARIES_ROR_DUMP_URL. */
  recordUrl: string;
  /** A community records search URL answering the same release. */
  searchUrl: string;
  /** Requests seen, `METHOD path`. */
  requests: string[];
  stop(): Promise<void>;
}

/** Serves `zipPath` as ROR's newest release on 127.0.0.1, the way Zenodo does. */
export function startPublisher(zipPath: string): PublisherServer {
  const requests: string[] = [];
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request): Response {
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}`);
      const base: string = `http://127.0.0.1:${server.port}`;
      const fileUrl = `${base}/records/6347574/files/v9.99-2026-11-20-ror-data.zip/content`;
      if (url.pathname === "/api/records/6347574") {
        // Signposting: the landing page's linkset lists the record's files as items.
        return Response.json(
          { linkset: [{ anchor: `${base}/records/6347574`, item: [{ href: fileUrl, type: "application/zip" }], "cite-as": [{ href: "https://doi.org/10.5281/zenodo.6347574" }] }] },
          { headers: { "content-type": "application/linkset+json" } },
        );
      }
      if (url.pathname === "/api/communities/ror-data/records") {
        return Response.json({ hits: { total: 1, hits: [{ id: "6347574", files: [{ key: "v9.99-2026-11-20-ror-data.zip", links: { self: fileUrl } }] }] } });
      }
      if (url.pathname.startsWith("/records/6347574/files/")) return new Response(Bun.file(zipPath), { headers: { "content-type": "application/zip" } });
      return new Response("not found", { status: 404 });
    },
  });
  return {
    recordUrl: `http://127.0.0.1:${server.port}/api/records/6347574`,
    searchUrl: `http://127.0.0.1:${server.port}/api/communities/ror-data/records?q=&sort=newest`,
    requests,
    stop: () => server.stop(true),
  };
}
