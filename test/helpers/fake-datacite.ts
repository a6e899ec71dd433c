// A fake DataCite REST API on 127.0.0.1 for tests: /dois with basic auth, validation, DOI states, injected 500s.

export type FakeDoiState = "draft" | "registered" | "findable";

export interface FakeDoi {
  doi: string;
  state: FakeDoiState;
  attributes: Record<string, any>;
}

export interface FakeRequest {
  method: string;
  /** Path and query, e.g. `/dois/10.1234/abc`. */
  path: string;
  /** The basic-auth user name sent (never the password), or null without credentials. */
  username: string | null;
  contentType: string | null;
  body: any;
  /** The status the fake answered. */
  status: number;
}

// What DataCite checks before a DOI may leave the draft state (publish or register).
const REQUIRED: [string, (a: Record<string, any>) => boolean][] = [
  ["titles", (a) => Array.isArray(a.titles) && a.titles.some((t: any) => typeof t?.title === "string" && t.title)],
  ["creators", (a) => Array.isArray(a.creators) && a.creators.some((c: any) => typeof c?.name === "string" && c.name)],
  ["publisher", (a) => (typeof a.publisher === "string" ? a.publisher : a.publisher?.name)?.length > 0],
  ["publicationYear", (a) => /^\d{4}$/.test(String(a.publicationYear ?? ""))],
  ["types", (a) => typeof a.types?.resourceTypeGeneral === "string" && a.types.resourceTypeGeneral.length > 0],
  ["url", (a) => typeof a.url === "string" && /^https?:\/\//.test(a.url)],
];

// DataCite's state machine; an event that does not apply leaves the state as it is.
const TRANSITIONS: Record<string, Partial<Record<FakeDoiState, FakeDoiState>>> = {
  publish: { draft: "findable", registered: "findable", findable: "findable" },
  register: { draft: "registered" },
  hide: { findable: "registered" },
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/vnd.api+json; charset=utf-8" } });
const errors = (status: number, items: Record<string, string>[]) => json(status, { errors: items });

export async function startFakeDatacite(options: { username: string; password: string }) {
  const requests: FakeRequest[] = [];
  const dois = new Map<string, FakeDoi>();
  let failures = 0;

  function credentials(request: Request): { username: string; password: string } | null {
    const header = request.headers.get("authorization") ?? "";
    if (!header.startsWith("Basic ")) return null;
    const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }

  const present = (d: FakeDoi) => ({ data: { id: d.doi, type: "dois", attributes: { ...d.attributes, doi: d.doi, state: d.state } } });

  function save(doi: string, attributes: Record<string, any>, creating: boolean): Response {
    const { event, doi: _ignored, ...rest } = attributes;
    if (event !== undefined && !(event in TRANSITIONS)) {
      return errors(422, [{ source: "event", title: `Event ${event} is not supported`, uid: doi }]);
    }
    const existing = dois.get(doi);
    const merged = { ...(existing?.attributes ?? {}), ...rest };
    const state: FakeDoiState = existing?.state ?? "draft";
    const next = event ? (TRANSITIONS[event]![state] ?? state) : state;
    if (next !== "draft") {
      const missing = REQUIRED.filter(([, ok]) => !ok(merged)).map(([field]) => field);
      if (missing.length)
        return errors(
          422,
          missing.map((field) => ({ source: field, title: `can't be blank`, uid: doi })),
        );
    }
    const saved = { doi, state: next, attributes: merged };
    dois.set(doi, saved);
    return json(creating ? 201 : 200, present(saved));
  }

  async function handle(request: Request, url: URL): Promise<Response> {
    if (failures > 0) {
      failures--;
      return errors(500, [{ status: "500", title: "Internal server error" }]);
    }
    const who = credentials(request);
    if (!who || who.username !== options.username || who.password !== options.password) {
      return errors(401, [{ status: "401", title: "Bad credentials." }]);
    }
    const match = /^\/dois(?:\/(.+))?$/.exec(url.pathname);
    if (!match) return errors(404, [{ status: "404", title: "The resource you are looking for doesn't exist." }]);
    const pathDoi = match[1] ? decodeURIComponent(match[1]).toLowerCase() : null;

    if (request.method === "GET" && pathDoi) {
      const found = dois.get(pathDoi);
      return found ? json(200, present(found)) : errors(404, [{ status: "404", title: "The resource you are looking for doesn't exist." }]);
    }
    if (request.method !== "PUT" && request.method !== "POST") return errors(405, [{ status: "405", title: "Method not allowed" }]);

    const body: any = await request
      .clone()
      .json()
      .catch(() => null);
    const data = body?.data;
    if (!data || typeof data.attributes !== "object" || (data.type !== undefined && data.type !== "dois")) {
      return errors(400, [{ status: "400", title: "You need to provide a payload following the JSONAPI spec" }]);
    }
    if (request.method === "POST") {
      if (pathDoi) return errors(405, [{ status: "405", title: "Method not allowed" }]);
      const doi = String(data.attributes.doi ?? "").toLowerCase();
      if (!doi) return errors(422, [{ source: "doi", title: "can't be blank" }]);
      if (dois.has(doi)) return errors(422, [{ source: "doi", title: "This DOI has already been taken", uid: doi }]);
      return save(doi, data.attributes, true);
    }
    if (!pathDoi) return errors(405, [{ status: "405", title: "Method not allowed" }]);
    // PUT /dois/{id} creates the DOI when the name is free, otherwise updates it (partially).
    return save(pathDoi, data.attributes, !dois.has(pathDoi));
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const response = await handle(request, url);
      requests.push({
        method: request.method,
        path: url.pathname + url.search,
        username: credentials(request)?.username ?? null,
        contentType: request.headers.get("content-type"),
        body: await request.json().catch(() => null),
        status: response.status,
      });
      return response;
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    dois,
    /** The next `n` requests answer 500, as DataCite does when it is having a bad day. */
    failNext(n: number) {
      failures += n;
    },
    stop() {
      return server.stop(true);
    },
  };
}
