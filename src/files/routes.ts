// HTTP routes of draft and record files. Keys may contain '/', so everything after `/files/` is
// one wildcard split here into the key and the sub-resource (`content`, `content/{part}`, `commit`).
import { Elysia } from "elysia";
import type { Actor } from "../core/actor";
import { actionPayloadBody } from "../core/body";
import { badRequest, HttpError, unsupportedMediaType } from "../core/errors";
import { isHeadRequest, type ActorContext } from "../core/http";
import type { AddressResolver, PeerInfo } from "../core/client-address";
import { visitorOf } from "../core/visitor";
import type { ByteSource } from "../storage/file-store";
import type { ContentRequest } from "./download";
import { fileInitsBody } from "./model";
import type { FilesService } from "./service";
import { parseContentLength } from "./uploads";

const tags = ["Files"];

/** The routes whose request body is file content, streamed unread by the JSON body parser. */
export const FILE_CONTENT_ROUTES = ["PUT /api/records/:id/draft/files/*", "PUT /api/records/:id/files/*"];

type Tail = { key: string; sub: "entry" | "content" | "commit" | "part"; part?: string };

/** `a/b.csv/content/3` -> key `a/b.csv`, part 3. Segments arrive percent-encoded. */
function splitTail(raw: string): Tail {
  let tail: string;
  try {
    tail = raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw badRequest("The file key is not valid percent-encoded UTF-8.");
  }
  const part = /^(.+)\/content\/([^/]+)$/.exec(tail);
  if (part) return { key: part[1]!, sub: "part", part: part[2]! };
  if (tail.endsWith("/content")) return { key: tail.slice(0, -8), sub: "content" };
  if (tail.endsWith("/commit")) return { key: tail.slice(0, -7), sub: "commit" };
  return { key: tail, sub: "entry" };
}

const notHere = () => new HttpError(405, "This method is not allowed on this file resource.");

/** A content body: the stream the parser left unread; anything parsed (JSON) is the wrong type. */
function byteBody(body: unknown, request: Request): ByteSource {
  if (body instanceof ReadableStream) return body as ReadableStream<Uint8Array>;
  if (body === undefined && request.body === null) return new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  throw unsupportedMediaType("application/octet-stream");
}

/** The conditions and range a content request asks for. */
const contentRequestOf = (request: Request): ContentRequest => ({
  head: isHeadRequest(request),
  range: request.headers.get("range"),
  ifRange: request.headers.get("if-range"),
  ifNoneMatch: request.headers.get("if-none-match"),
  ifModifiedSince: request.headers.get("if-modified-since"),
});

/** `addressOf`: the client's address, as the statistics count visitors (APP_TRUSTED_PROXIES decides who the client is). */
export const filesRoutes = (http: ActorContext, files: FilesService, addressOf: AddressResolver) => {
  const read = (actor: Actor, id: string, isDraft: boolean, raw: string, request: Request, server: PeerInfo | null) => {
    const { key, sub } = splitTail(raw);
    files.checkKey(key);
    if (sub === "content") return files.content(actor, id, isDraft, key, contentRequestOf(request), visitorOf(addressOf(request, server), request));
    if (sub === "entry") return files.readFile(actor, id, isDraft, key);
    throw notHere();
  };
  return (
    new Elysia()
      .use(http)
      .get("/api/records/:id/draft/files", ({ actor, params }) => files.listFiles(actor, params.id, true), { detail: { summary: "List a draft's files", tags } })
      .post(
        "/api/records/:id/draft/files",
        ({ actor, params, body, set }) => {
          set.status = 201;
          return files.initFiles(actor, params.id, body);
        },
        { body: fileInitsBody, detail: { summary: "Start uploads (local, multipart M, or fetched F)", tags } },
      )
      .get("/api/records/:id/draft/files/*", ({ actor, params, request, server }) => read(actor, params.id, true, params["*"], request, server), {
        detail: { summary: "A draft file's entry or content", tags },
      })
      .put(
        "/api/records/:id/draft/files/*",
        ({ actor, params, body, request }) => {
          const { key, sub, part } = splitTail(params["*"]);
          files.checkKey(key);
          if (sub === "entry") return files.updateFileMetadata(actor, params.id, key, body);
          const length = parseContentLength(request.headers.get("content-length"));
          if (sub === "content") return files.uploadContent(actor, params.id, key, byteBody(body, request), length);
          if (sub === "part") return files.uploadPart(actor, params.id, key, part!, byteBody(body, request), length);
          throw notHere();
        },
        { detail: { summary: "Upload content, a part, or update a file's metadata", tags } },
      )
      .post(
        "/api/records/:id/draft/files/*",
        ({ actor, params }) => {
          const { key, sub } = splitTail(params["*"]);
          files.checkKey(key);
          if (sub === "commit") return files.commit(actor, params.id, key);
          throw notHere();
        },
        { detail: { summary: "Commit an uploaded file", tags } },
      )
      .delete(
        "/api/records/:id/draft/files/*",
        async ({ actor, params, set }) => {
          const { key, sub } = splitTail(params["*"]);
          files.checkKey(key);
          if (sub !== "entry") throw notHere();
          await files.deleteFile(actor, params.id, key);
          set.status = 204;
          return null;
        },
        { detail: { summary: "Delete a draft file", tags } },
      )
      .get("/api/records/:id/draft/files-archive", ({ actor, params, request }) => files.archive(actor, params.id, true, isHeadRequest(request)), {
        detail: { summary: "All draft files as a ZIP", tags },
      })
      .post(
        "/api/records/:id/draft/actions/files-import",
        ({ actor, params, set }) => {
          set.status = 201;
          return files.importFiles(actor, params.id);
        },
        { body: actionPayloadBody, detail: { summary: "Import the previous version's files into a new version", tags } },
      )
      .get("/api/records/:id/files", ({ actor, params }) => files.listFiles(actor, params.id, false), { detail: { summary: "List a record's files", tags } })
      .get("/api/records/:id/files/*", ({ actor, params, request, server }) => read(actor, params.id, false, params["*"], request, server), {
        detail: { summary: "A record file's entry or content", tags },
      })
      .get("/api/records/:id/files-archive", ({ actor, params, request }) => files.archive(actor, params.id, false, isHeadRequest(request)), {
        detail: { summary: "All record files as a ZIP", tags },
      })
      // A published record's files are never written: 403 (InvenioRDM's answer), after the read checks.
      .post("/api/records/:id/files", ({ actor, params }) => files.refuseRecordWrite(actor, params.id), {
        // The draft route's body (a list of keys), so a client's usual request reaches the refusal.
        body: fileInitsBody,
        detail: { summary: "Refused: a published record's files", tags },
      })
      .put("/api/records/:id/files/*", ({ actor, params }) => files.refuseRecordWrite(actor, params.id), { detail: { summary: "Refused: a published record's files", tags } })
      .post("/api/records/:id/files/*", ({ actor, params }) => files.refuseRecordWrite(actor, params.id), { detail: { summary: "Refused: a published record's files", tags } })
      .delete("/api/records/:id/files/*", ({ actor, params }) => files.refuseRecordWrite(actor, params.id), { detail: { summary: "Refused: a published record's files", tags } })
  );
};
