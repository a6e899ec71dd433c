// A small client for DataCite's REST API (JSON:API over HTTPS, basic auth with the repository account).
import type { Config } from "../config";
import type { JsonObject } from "../core/json";

export type DataciteEvent = "publish" | "register" | "hide";

/** DataCite's DOI states: `draft` (reserved), `registered` (resolves, not searchable), `findable`. */
export type DoiState = "draft" | "registered" | "findable";

export interface DataciteDoi {
  id: string;
  type: string;
  attributes: JsonObject & { doi: string; state?: DoiState };
}

export interface DataciteErrorItem {
  status?: string;
  source?: string;
  title: string;
}

/** A failed call: `status` is the HTTP status (0 when DataCite could not be reached). */
export class DataciteError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: DataciteErrorItem[] = [],
  ) {
    super(message);
    this.name = "DataciteError";
  }
}

export interface DataciteClientOptions {
  url: string;
  username: string;
  password: string;
  fetch?: typeof fetch;
  /** A DataCite call that hangs must not hold a job's lease for ever. */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type DataciteClient = ReturnType<typeof createDataciteClient>;

export const DATACITE_API_URL = "https://api.datacite.org";
export const DATACITE_TEST_API_URL = "https://api.test.datacite.org";

/** DATACITE_URL when set, else DataCite's test or production API by DATACITE_TEST_MODE. */
export function dataciteApiUrl(config: Pick<Config, "DATACITE_URL" | "DATACITE_TEST_MODE">): string {
  if (config.DATACITE_URL) return config.DATACITE_URL;
  return config.DATACITE_TEST_MODE ? DATACITE_TEST_API_URL : DATACITE_API_URL;
}

const JSON_API = "application/vnd.api+json";

export function createDataciteClient(options: DataciteClientOptions) {
  const base = options.url.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Only the encoded header is kept; the password itself is never stored on anything returned.
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString("base64")}`;
  const secrets = [options.password, authorization.slice(6)].filter((s) => s.length >= 4);
  /** Belt and braces: nothing DataCite or the network layer says may carry the password into a log. */
  const redact = (text: string) => secrets.reduce((t, s) => t.replaceAll(s, "***"), text);

  const doiPath = (doi: string) => `/dois/${encodeURI(doi).replace(/[#?]/g, encodeURIComponent)}`;

  async function call(method: string, path: string, body: unknown, opts: CallOptions): Promise<{ status: number; json: any }> {
    const signals = [AbortSignal.timeout(timeoutMs), ...(opts.signal ? [opts.signal] : [])];
    let response: Response;
    try {
      response = await doFetch(base + path, {
        method,
        headers: {
          authorization,
          accept: JSON_API,
          ...(body === undefined ? {} : { "content-type": JSON_API }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any(signals),
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new DataciteError(0, redact(`DataCite ${method} ${path} failed: ${reason}`));
    }
    const text = await response.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // DataCite answers HTML from its proxies on some 5xx; keep the status, report the start.
    }
    if (!response.ok && response.status !== 404) throw toError(method, path, response.status, json, text);
    return { status: response.status, json };
  }

  function toError(method: string, path: string, status: number, json: any, text: string): DataciteError {
    const errors: DataciteErrorItem[] = Array.isArray(json?.errors)
      ? json.errors.map((e: any) => ({
          ...(e?.status !== undefined ? { status: String(e.status) } : {}),
          ...(e?.source !== undefined ? { source: String(e.source) } : {}),
          title: redact(String(e?.title ?? e?.detail ?? "")),
        }))
      : [];
    const detail = errors.length ? errors.map((e) => (e.source ? `${e.source}: ${e.title}` : e.title)).join("; ") : text.replace(/\s+/g, " ").trim().slice(0, 200) || "no details";
    return new DataciteError(status, redact(`DataCite ${method} ${path} answered ${status}: ${detail}`), errors);
  }

  return {
    url: base,

    /**
     * Creates or updates a DOI with these attributes: DataCite's PUT /dois/{id} creates the DOI
     * when the name is free and updates it otherwise. `event` moves its state
     * (publish: -> findable, register: draft -> registered, hide: findable -> registered).
     */
    async upsertDoi(doi: string, attributes: Record<string, unknown>, event?: DataciteEvent, opts: CallOptions = {}): Promise<DataciteDoi> {
      const body = { data: { id: doi, type: "dois", attributes: { ...attributes, doi, ...(event ? { event } : {}) } } };
      const path = doiPath(doi);
      const { status, json } = await call("PUT", path, body, opts);
      if (status === 404) throw toError("PUT", path, status, json, "");
      return json.data as DataciteDoi;
    },

    /** The DOI as DataCite holds it (drafts included, since we authenticate), or null when unknown. */
    async getDoi(doi: string, opts: CallOptions = {}): Promise<DataciteDoi | null> {
      // publisher=true: the 4.5 publisher object instead of the legacy string.
      const { status, json } = await call("GET", `${doiPath(doi)}?publisher=true`, undefined, opts);
      return status === 404 ? null : (json.data as DataciteDoi);
    },
  };
}
