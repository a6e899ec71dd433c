// HTTP routes of OAI-PMH: set administration under /api/oaipmh and the harvesting endpoint /oai2d.
import { Elysia } from "elysia";
import type { AddressOf } from "../core/client-address";
import type { ActorContext } from "../core/http";
import { setCreateBody, setIdParams, setListQuery, setUpdateBody } from "./model";
import { OAI_PATH } from "./present";
import type { OaiService } from "./service";

const tags = ["OAI-PMH"];

/** POST /oai2d takes a form body (core/http.ts parses it for the routes listed here). */
export const OAI_FORM_ROUTES = [`POST ${OAI_PATH}`];

/** The request's arguments as name/value pairs, repeats kept (a repeated argument is an OAI error). */
function argumentsOf(request: Request, body: unknown): [string, string][] {
  const pairs: [string, string][] = [...new URL(request.url).searchParams];
  if (body instanceof URLSearchParams) pairs.push(...body);
  return pairs;
}

const xml = (text: string) => new Response(text, { headers: { "Content-Type": "text/xml; charset=utf-8" } });

/** The harvesting endpoint: open to all, sees public records only, so no actor is resolved. */
export const oaiHarvestRoutes = (oai: OaiService) =>
  new Elysia()
    .get(OAI_PATH, async ({ request }) => xml(await oai.harvest(argumentsOf(request, undefined))), {
      detail: { summary: "OAI-PMH 2.0 harvesting (verb=Identify, ListMetadataFormats, ListSets, ListIdentifiers, ListRecords, GetRecord)", tags },
    })
    .post(OAI_PATH, async ({ request, body }) => xml(await oai.harvest(argumentsOf(request, body))), {
      detail: { summary: "OAI-PMH 2.0 harvesting with the arguments as an application/x-www-form-urlencoded body", tags },
    });

export const oaiSetsRoutes = (http: ActorContext, oai: OaiService, addressOf: AddressOf) =>
  new Elysia({ prefix: "/api/oaipmh" })
    .use(http)
    .get("/sets", ({ actor, query }) => oai.listSets(actor, query), { query: setListQuery, detail: { summary: "Search OAI-PMH sets (administrators)", tags } })
    .post(
      "/sets",
      async ({ actor, body, set, request, server }) => {
        const created = await oai.createSet(actor, body, { via: "api", address: addressOf(request, server) });
        set.status = 201;
        return created;
      },
      { body: setCreateBody, detail: { summary: "Create an OAI-PMH set (administrators)", tags } },
    )
    .get("/sets/:id", ({ actor, params }) => oai.readSet(actor, params.id), { params: setIdParams, detail: { summary: "Read an OAI-PMH set", tags } })
    .put("/sets/:id", ({ actor, params, body, request, server }) => oai.updateSet(actor, params.id, body, { via: "api", address: addressOf(request, server) }), {
      params: setIdParams,
      body: setUpdateBody,
      detail: { summary: "Update an OAI-PMH set (its spec cannot change)", tags },
    })
    .delete(
      "/sets/:id",
      async ({ actor, params, set, request, server }) => {
        await oai.deleteSet(actor, params.id, { via: "api", address: addressOf(request, server) });
        set.status = 204;
        return null;
      },
      { params: setIdParams, detail: { summary: "Delete an OAI-PMH set", tags } },
    )
    .get("/formats", ({ actor }) => oai.listFormats(actor), { detail: { summary: "Metadata formats served over OAI-PMH (administrators)", tags } });
