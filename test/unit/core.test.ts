// src/core: negotiation, paging, time formats, ETags, errors, links, JSON bodies, the routes index.
import { describe, expect, test } from "bun:test";
import { readJsonBody } from "../../src/core/body";
import { checkRevision, ifMatchRevision, matchesIfNoneMatch, revisionEtag } from "../../src/core/etag";
import { forbidden, gone, HttpError, invalidToken, unauthorized, validationError } from "../../src/core/errors";
import { createLinks, type QueryValues } from "../../src/core/links";
import { JSON_MEDIA_TYPES, negotiate } from "../../src/core/negotiation";
import { parsePage, searchEnvelope, type PagingLimits } from "../../src/core/paging";
import { createRoutesIndex } from "../../src/core/routes-index";
import { formatDate, formatIsoTime, formatRecordTime, formatSecondsTime, ManualClock } from "../../src/core/time";

/** Runs `fn` and returns the HttpError it throws (async or not); fails the test otherwise. */
async function httpError(fn: () => unknown): Promise<HttpError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error("expected an HttpError");
}

describe("negotiate", () => {
  const [JSON_, SERVICE, INVENIO] = JSON_MEDIA_TYPES as [string, string, string];

  test.each<[string, string | null | undefined, string | null]>([
    ["no header", undefined, JSON_],
    ["null header", null, JSON_],
    ["empty header", "  ", JSON_],
    ["*/*", "*/*", JSON_],
    ["exact vendor type", "application/vnd.inveniordm.v1+json", INVENIO],
    ["application/json with charset", "application/json;charset=UTF-8", JSON_],
    ["case-insensitive", "Application/JSON", JSON_],
    ["higher q wins over server order", "application/json;q=0.5, application/vnd.service.v1+json", SERVICE],
    ["q-values with spaces", "application/vnd.inveniordm.v1+json ; q=0.9, application/json ; q=0.8", INVENIO],
    ["type/* matches", "application/*", JSON_],
    ["exact range beats type/*", "application/*;q=0.2, application/vnd.inveniordm.v1+json;q=0.4", INVENIO],
    ["q=0 excludes a type otherwise matched by */*", "application/json;q=0, */*", SERVICE],
    ["q=0 on everything", "*/*;q=0", null],
    ["tie broken by the server's order", "application/vnd.inveniordm.v1+json, application/json", JSON_],
    ["unknown types", "text/html, image/png", null],
    ["unknown type with a lower-q wildcard", "text/html, */*;q=0.1", JSON_],
  ])("%s", (_name, accept, expected) => {
    expect(negotiate(accept, JSON_MEDIA_TYPES)).toBe(expected);
  });

  test("nothing offered gives null", () => {
    expect(negotiate(undefined, [])).toBeNull();
    expect(negotiate("*/*", [])).toBeNull();
  });
});

describe("parsePage", () => {
  const limits: PagingLimits = { defaultSize: 10, maxSize: 100, maxWindow: 1000 };

  test.each<[string, { page?: unknown; size?: unknown }, { page: number; size: number; offset: number }]>([
    ["defaults", {}, { page: 1, size: 10, offset: 0 }],
    ["empty strings are defaults", { page: "", size: "" }, { page: 1, size: 10, offset: 0 }],
    ["strings", { page: "3", size: "20" }, { page: 3, size: 20, offset: 40 }],
    ["numbers", { page: 2, size: 5 }, { page: 2, size: 5, offset: 5 }],
    ["max size", { size: "100" }, { page: 1, size: 100, offset: 0 }],
    ["window exactly at the limit", { page: "10", size: "100" }, { page: 10, size: 100, offset: 900 }],
  ])("%s", (_name, query, expected) => {
    expect(parsePage(query, limits)).toEqual(expected);
  });

  test.each<[string, { page?: unknown; size?: unknown }, { field: string; messages: string[] }[]]>([
    ["size above max", { size: "101" }, [{ field: "size", messages: ["Must be a whole number from 1 to 100."] }]],
    ["size 0", { size: "0" }, [{ field: "size", messages: ["Must be a whole number from 1 to 100."] }]],
    ["non-numeric size", { size: "ten" }, [{ field: "size", messages: ["Must be a whole number from 1 to 100."] }]],
    ["page 0", { page: "0" }, [{ field: "page", messages: ["Must be a whole number of 1 or more."] }]],
    ["negative page", { page: "-2" }, [{ field: "page", messages: ["Must be a whole number of 1 or more."] }]],
    ["fractional page", { page: "1.5" }, [{ field: "page", messages: ["Must be a whole number of 1 or more."] }]],
    [
      "both bad",
      { page: "x", size: "1000" },
      [
        { field: "size", messages: ["Must be a whole number from 1 to 100."] },
        { field: "page", messages: ["Must be a whole number of 1 or more."] },
      ],
    ],
    ["page * size past the window", { page: "11", size: "100" }, [{ field: "page", messages: ["page * size must not exceed 1000; narrow the query instead."] }]],
  ])("400 for %s", async (_name, query, errors) => {
    const err = await httpError(() => parsePage(query, limits));
    expect(err.status).toBe(400);
    expect(err.message).toBe("Invalid pagination parameters.");
    expect(err.errors).toEqual(errors);
  });
});

describe("searchEnvelope", () => {
  const links = createLinks("https://cairn.test");
  const url = (q: QueryValues) => links.api("/records", q);

  test("a middle page links self, prev and next with the effective parameters", () => {
    const result = searchEnvelope({ items: ["c", "d"], total: 6, page: { page: 2, size: 2, offset: 2 }, url, params: { q: "soil" }, sortBy: "newest" });
    expect(result).toEqual({
      hits: { hits: ["c", "d"], total: 6 },
      sortBy: "newest",
      links: {
        self: "https://cairn.test/api/records?q=soil&sort=newest&page=2&size=2",
        prev: "https://cairn.test/api/records?q=soil&sort=newest&page=1&size=2",
        next: "https://cairn.test/api/records?q=soil&sort=newest&page=3&size=2",
      },
    });
  });

  test("the first page has no prev; the last page has no next", () => {
    const first = searchEnvelope({ items: [1, 2], total: 3, page: { page: 1, size: 2, offset: 0 }, url });
    expect(first.links).toEqual({ self: "https://cairn.test/api/records?page=1&size=2", next: "https://cairn.test/api/records?page=2&size=2" });
    const last = searchEnvelope({ items: [3], total: 3, page: { page: 2, size: 2, offset: 2 }, url });
    expect(last.links).toEqual({ self: "https://cairn.test/api/records?page=2&size=2", prev: "https://cairn.test/api/records?page=1&size=2" });
    const exact = searchEnvelope({ items: [3, 4], total: 4, page: { page: 2, size: 2, offset: 2 }, url });
    expect(exact.links.next).toBeUndefined();
  });

  test("aggregations are passed through; absent sortBy and aggregations are left out", () => {
    const empty = searchEnvelope({ items: [], total: 0, page: { page: 1, size: 10, offset: 0 }, url });
    expect(empty).toEqual({ hits: { hits: [], total: 0 }, links: { self: "https://cairn.test/api/records?page=1&size=10" } });
    const aggs = { type: { buckets: [] } };
    expect(searchEnvelope({ items: [], total: 0, page: { page: 1, size: 10, offset: 0 }, url, aggregations: aggs }).aggregations).toEqual(aggs);
  });
});

describe("time", () => {
  const at = Date.UTC(2026, 1, 3, 4, 5, 6, 78);

  test.each([
    [formatRecordTime, "2026-02-03 04:05:06.078000"],
    [formatIsoTime, "2026-02-03T04:05:06.078000+00:00"],
    [formatSecondsTime, "2026-02-03T04:05:06"],
    [formatDate, "2026-02-03"],
  ])("%p", (format, expected) => {
    expect(format(at)).toBe(expected);
  });

  test("formats are UTC and zero-padded at the epoch", () => {
    expect(formatRecordTime(0)).toBe("1970-01-01 00:00:00.000000");
    expect(formatIsoTime(Date.UTC(1999, 11, 31, 23, 59, 59, 999))).toBe("1999-12-31T23:59:59.999000+00:00");
  });

  test("ManualClock starts at 2026-01-01 UTC, advances and is set by hand", () => {
    const clock = new ManualClock();
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1));
    clock.advance(1500);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1) + 1500);
    clock.set("2030-05-06T07:08:09.010Z");
    expect(clock.now()).toBe(Date.UTC(2030, 4, 6, 7, 8, 9, 10));
    clock.set(new Date(42));
    expect(clock.now()).toBe(42);
    clock.set(7);
    expect(new ManualClock(99).now()).toBe(99);
    expect(clock.now()).toBe(7);
  });
});

describe("etag", () => {
  test("revisionEtag quotes the revision", () => {
    expect(revisionEtag(3)).toBe('"3"');
  });

  test.each<[string | null | undefined, number | null]>([
    [undefined, null],
    [null, null],
    ["", null],
    ["*", null],
    ["3", 3],
    ['"3"', 3],
    ['W/"3"', 3],
    [' "12" ', 12],
  ])("ifMatchRevision(%p) is %p", (header, expected) => {
    expect(ifMatchRevision(header)).toBe(expected);
  });

  test.each(["abc", '"3", "4"', "3.0", 'W/"x"'])("ifMatchRevision(%p) is a 412", async (header) => {
    const err = await httpError(() => ifMatchRevision(header));
    expect(err.status).toBe(412);
    expect(err.message).toBe("If-Match must be the revision id of the resource.");
  });

  test("checkRevision passes when absent or equal, 412 otherwise", async () => {
    expect(() => checkRevision(null, 3)).not.toThrow();
    expect(() => checkRevision('"3"', 3)).not.toThrow();
    const err = await httpError(() => checkRevision('"2"', 3));
    expect(err.status).toBe(412);
    expect(err.message).toBe("The resource was changed by someone else: its revision does not match If-Match.");
  });

  test.each<[string | null | undefined, boolean]>([
    [undefined, false],
    ["", false],
    ['"3"', true],
    ['W/"3"', true],
    ['"1", "3"', true],
    ["*", true],
    ['"4"', false],
    ["3", false],
  ])("matchesIfNoneMatch(%p, '\"3\"') is %p", (header, expected) => {
    expect(matchesIfNoneMatch(header, '"3"')).toBe(expected);
  });
});

describe("errors", () => {
  test("validationError merges repeated fields in first-seen order", () => {
    const err = validationError([
      { field: "metadata.title", messages: ["Missing data for required field."] },
      { field: "metadata.creators.0.name", messages: ["Too short."] },
      { field: "metadata.title", messages: ["Too long.", "Not a string."] },
    ]);
    expect(err.status).toBe(400);
    expect(err.toJSON()).toEqual({
      status: 400,
      message: "A validation error occurred.",
      errors: [
        { field: "metadata.title", messages: ["Missing data for required field.", "Too long.", "Not a string."] },
        { field: "metadata.creators.0.name", messages: ["Too short."] },
      ],
    });
  });

  test("toJSON leaves out errors when there are none and spreads extra members", () => {
    expect(forbidden().toJSON()).toEqual({ status: 403, message: "Permission denied." });
    expect(gone("Deleted.", { tombstone: { note: "spam" } }).toJSON() as Record<string, unknown>).toEqual({ status: 410, message: "Deleted.", tombstone: { note: "spam" } });
    expect(JSON.parse(JSON.stringify(new HttpError(418, "teapot")))).toEqual({ status: 418, message: "teapot" });
  });

  test.each([
    ["unauthorized", unauthorized()],
    ["invalidToken", invalidToken()],
  ])("%s is a 401 with a Bearer challenge", (_name, err) => {
    expect(err.status).toBe(401);
    expect(err.headers["WWW-Authenticate"]).toStartWith("Bearer");
  });

  test("invalidToken names the error in its challenge", () => {
    expect(invalidToken().headers["WWW-Authenticate"]).toContain('error="invalid_token"');
    expect(unauthorized("Sign in.").message).toBe("Sign in.");
  });
});

describe("links", () => {
  test("trailing slashes of the base are trimmed", () => {
    const links = createLinks("https://cairn.test/base//");
    expect(links.baseUrl).toBe("https://cairn.test/base");
    expect(links.api("/records/abc")).toBe("https://cairn.test/base/api/records/abc");
    expect(links.html("/records/abc")).toBe("https://cairn.test/base/records/abc");
  });

  test("query arrays repeat the key; empty, null and undefined values are dropped", () => {
    const links = createLinks("https://cairn.test");
    const query: QueryValues = { q: "a b&c", type: ["dataset", "image"], sort: undefined, page: 2, flag: true, empty: "", none: null, ids: [] };
    expect(links.api("/records", query)).toBe("https://cairn.test/api/records?q=a+b%26c&type=dataset&type=image&page=2&flag=true");
    expect(links.html("/search", { q: "" })).toBe("https://cairn.test/search");
  });
});

describe("readJsonBody", () => {
  const post = (body: string | ReadableStream<Uint8Array> | null, headers: Record<string, string> = {}) =>
    new Request("http://cairn.test/api/x", { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

  /** A body sent in chunks, without Content-Length. */
  const streamed = (...chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    });

  test("an absent or blank body is {}", async () => {
    expect(await readJsonBody(post(null), 100)).toEqual({});
    expect(await readJsonBody(post("  \n "), 100)).toEqual({});
  });

  test("JSON is parsed, also from a stream", async () => {
    expect(await readJsonBody(post('{"a":[1,2],"b":"é"}'), 100)).toEqual({ a: [1, 2], b: "é" });
    const request = post(streamed('{"a":', "1}"));
    expect(request.headers.get("content-length")).toBeNull();
    expect(await readJsonBody(request, 100)).toEqual({ a: 1 });
  });

  test("invalid JSON is a 400", async () => {
    const err = await httpError(() => readJsonBody(post("{nope"), 100));
    expect(err.status).toBe(400);
    expect(err.message).toBe("Unable to decode JSON data in request body.");
  });

  test("a declared Content-Length over the limit is a 413 before reading", async () => {
    const err = await httpError(() => readJsonBody(post("{}", { "content-length": "101" }), 100));
    expect(err.status).toBe(413);
    expect(err.message).toBe("The request body is larger than the limit of 100 bytes.");
  });

  test("a streamed body without Content-Length past the limit is a 413", async () => {
    const request = post(streamed('{"a":"', "x".repeat(60), "y".repeat(60), '"}'));
    expect(request.headers.get("content-length")).toBeNull();
    const err = await httpError(() => readJsonBody(request, 100));
    expect(err.status).toBe(413);
  });

  test("a body exactly at the limit is read", async () => {
    const body = JSON.stringify({ a: "x".repeat(92) });
    expect(body.length).toBe(100);
    expect(await readJsonBody(post(streamed(body)), 100)).toEqual({ a: "x".repeat(92) });
  });
});

describe("createRoutesIndex", () => {
  const routes = [
    { method: "get", path: "/api/records/:id" },
    { method: "PUT", path: "/api/records/:id" },
    { method: "DELETE", path: "/api/records/:id/draft" },
    { method: "POST", path: "/api/records" },
    { method: "GET", path: "/api/files/*" },
    { method: "ALL", path: "/api/records/:id" },
  ];

  test.each<[string, string[]]>([
    ["/api/records/abc-123", ["GET", "HEAD", "PUT"]],
    ["/api/records/abc-123/", ["GET", "HEAD", "PUT"]],
    ["/api/records/abc-123/draft", ["DELETE"]],
    ["/api/records", ["POST"]],
    ["/api/files/a/b.txt", ["GET", "HEAD"]],
    ["/api/unknown", []],
    ["/api/records/a/b/c", []],
  ])("%s serves %p", (path, expected) => {
    expect(createRoutesIndex(() => routes).allowedMethods(path)).toEqual(expected);
  });

  test("routes are read once, lazily", () => {
    let calls = 0;
    const index = createRoutesIndex(() => {
      calls++;
      return routes;
    });
    expect(calls).toBe(0);
    index.allowedMethods("/api/records");
    index.allowedMethods("/api/records/x");
    expect(calls).toBe(1);
  });
});
