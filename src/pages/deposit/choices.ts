// The small controlled vocabularies the deposit form offers as selects (resource, title,
// description, date and relation types, creator and contributor roles), read once per page.
import type { Actor } from "../../core/actor";
import type { PagesDeps } from "../context";

type Json = Record<string, any>;

export interface Choice {
  id: string;
  title: string;
}

/** The lists by vocabulary type; resourcetypes' titles carry their parent ("Image: Other"). */
export type DepositChoices = Record<"resourcetypes" | "titletypes" | "descriptiontypes" | "datetypes" | "relationtypes" | "creatorsroles" | "contributorsroles", Choice[]>;

const titleOf = (entry: Json) => String(entry.title?.en ?? entry.id);

/**
 * Resource types as "Parent: Child" (InvenioRDM's props.type names the parent), a parent before
 * its children; two children with one title ("Thesis") are told apart by their ids.
 */
export function resourceTypeChoices(entries: Json[]): Choice[] {
  const byId = new Map(entries.map((e) => [String(e.id), e]));
  const parentOf = (e: Json) => {
    const parent = String(e.props?.type ?? "");
    return parent && parent !== e.id && byId.has(parent) ? byId.get(parent)! : null;
  };
  const labelled = entries.map((e) => {
    const parent = parentOf(e);
    return { e, parent, title: parent ? `${titleOf(parent)}: ${titleOf(e)}` : titleOf(e) };
  });
  const counts = new Map<string, number>();
  for (const l of labelled) counts.set(l.title, (counts.get(l.title) ?? 0) + 1);
  const key = (l: (typeof labelled)[number]) => `${titleOf(l.parent ?? l.e)}\u0000${l.parent ? `1${titleOf(l.e)}` : "0"}`;
  return labelled
    .sort((a, b) => key(a).localeCompare(key(b)) || String(a.e.id).localeCompare(String(b.e.id)))
    .map((l) => ({ id: String(l.e.id), title: counts.get(l.title)! > 1 ? `${l.title} (${String(l.e.id)})` : l.title }));
}

export async function depositChoices(deps: PagesDeps, actor: Actor): Promise<DepositChoices> {
  const read = async (type: string) => ((await deps.services.vocabularies.search(actor, type, { size: "100", sort: "title" })) as Json).hits.hits as Json[];
  const plain = async (type: string) => (await read(type)).map((e) => ({ id: String(e.id), title: titleOf(e) }));
  return {
    resourcetypes: resourceTypeChoices(await read("resourcetypes")),
    titletypes: await plain("titletypes"),
    descriptiontypes: await plain("descriptiontypes"),
    datetypes: await plain("datetypes"),
    relationtypes: await plain("relationtypes"),
    creatorsroles: await plain("creatorsroles"),
    contributorsroles: await plain("contributorsroles"),
  };
}
