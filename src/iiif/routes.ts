// HTTP routes of the IIIF Presentation API 2.1 resources of records and drafts
// (`/api/iiif/record:{id}/manifest`, `.../sequence/default`, `.../canvas/{key}`), served as
// JSON-LD as InvenioRDM serves them; HEAD answers as GET through the app's hooks.
import { Elysia } from "elysia";
import { badRequest, notAcceptable } from "../core/errors";
import { jsonResponse, type ActorContext } from "../core/http";
import { JSON_MEDIA_TYPES, negotiate } from "../core/negotiation";
import type { IiifService } from "./service";

const tags = ["IIIF"];
/** JSON-LD first (InvenioRDM's default); plain JSON for clients that ask for it. */
const IIIF_MEDIA_TYPES = ["application/ld+json", ...JSON_MEDIA_TYPES];

/** Negotiated before the read: an unacceptable Accept is a 406 whether or not the record exists. */
function mediaTypeOf(request: Request): string {
  const type = negotiate(request.headers.get("accept"), IIIF_MEDIA_TYPES);
  if (!type) throw notAcceptable(IIIF_MEDIA_TYPES);
  return type;
}

type Context = { request: Request; set: { headers: Record<string, string | number> } };
const answer = async ({ request, set }: Context, read: () => Promise<unknown>) => {
  const type = mediaTypeOf(request);
  return jsonResponse(await read(), 200, request, { ...set.headers, vary: "Accept" } as Record<string, string>, type);
};

export const iiifRoutes = (http: ActorContext, iiif: IiifService) =>
  new Elysia()
    .use(http)
    .get("/api/iiif/:uuid/manifest", (c) => answer(c, () => iiif.manifest(c.actor, c.params.uuid)), {
      detail: { summary: "A record's IIIF Presentation 2.1 manifest (uuid record:{id} or draft:{id}): a canvas per image file", tags },
    })
    .get("/api/iiif/:uuid/sequence/default", (c) => answer(c, () => iiif.sequence(c.actor, c.params.uuid)), {
      detail: { summary: "The manifest's sequence of canvases, alone", tags },
    })
    .get("/api/iiif/:uuid/canvas/*", (c) => answer(c, () => iiif.canvas(c.actor, c.params.uuid, decodeKey(c.params["*"]))), {
      detail: { summary: "The canvas of one image file of the record", tags },
    });

/** The file key from the wildcard, whose segments arrive percent-encoded (as the file routes read keys). */
function decodeKey(raw: string): string {
  try {
    return raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw badRequest("The file key is not valid percent-encoded UTF-8.");
  }
}
