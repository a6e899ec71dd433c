// Reads the OpenAIRE Graph projects dump (JSON Lines, gzipped or plain, or the project.tar of them) into award entries.
import type { AwardEntry, Identifier, ImportItem } from "../model";
import { type Progress, fileContent, fileSize, gunzip, lines, progressCounter, tarMembers } from "./source";

/**
 * OpenAIRE data-source prefix -> funder ROR id, transcribed from InvenioRDM's
 * VOCABULARIES_AWARDS_OPENAIRE_FUNDERS. Projects of any other funder are skipped.
 */
export const OPENAIRE_FUNDERS: Readonly<Record<string, string>> = {
  aka_________: "05k73zm37",
  anr_________: "00rbzpz17",
  arc_________: "05mmh0f86",
  asap________: "03zj4c476",
  cihr________: "01gavpb45",
  corda_______: "00k4n6c32",
  corda_____he: "00k4n6c32",
  corda__h2020: "00k4n6c32",
  euenvagency_: "02k4b9v70",
  fct_________: "00snfqn58",
  fwf_________: "013tf3c58",
  inca________: "03m8vkq32",
  irb_hr______: "03n51vw80",
  lcs_________: "02ar66p97",
  mestd_______: "01znas443",
  nhmrc_______: "011kf5r70",
  nih_________: "01cwqze88",
  nserc_______: "01h531d29",
  nsf_________: "021nxhr62",
  nwo_________: "04jsz6e67",
  // RCUK is a deprecated ROR organisation; InvenioRDM still maps its projects to it.
  rcuk________: "00dq2kk65",
  sfi_________: "0271asj38",
  snsf________: "00yjd3n13",
  sshrc_______: "006cvnv84",
  tubitakf____: "04w9kkr77",
  twcf________: "00x0z1472",
  ukri________: "001aqnf71",
  wt__________: "029chgv08",
};

/** The European Commission's ROR id (VOCABULARIES_AWARDS_EC_ROR_ID): its awards link to CORDIS. */
export const EC_ROR_ID = "00k4n6c32";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObject(v) ? v : {});
const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/**
 * The data-source prefix of a project id: "corda__h2020::<md5>" in the full Graph dump,
 * "40|corda__h2020::<md5>" in the new-projects dump (40 = the project entity type).
 */
export const funderPrefix = (id: string) => id.split("::", 1)[0]!.split("|").pop()!;

export function mapOpenaireProject(record: Json, where: string): ImportItem<AwardEntry> {
  const projectId = text(record.id);
  const code = text(record.code);
  if (!projectId || !code) return { skip: `${where}: project without id or code` };
  const prefix = funderPrefix(projectId);
  const funderId = OPENAIRE_FUNDERS[prefix];
  if (!funderId) return { skip: `OpenAIRE project ${projectId}: unknown funder prefix "${prefix}"` };
  const id = `${funderId}::${code}`;
  // Title is mandatory in the Graph model, yet thousands of FCT projects lack one; InvenioRDM skips them too.
  const title = text(record.title);
  if (!title) return { skip: `award ${id}: no title` };

  // Graph dumps since v6 say "fundings"/"fundingStream"; older ones "funding"/"funding_stream".
  const fundings = Array.isArray(record.fundings) ? record.fundings : Array.isArray(record.funding) ? record.funding : [];
  const funding = obj(fundings[0]);
  const streamId = text(obj(funding.fundingStream ?? funding.funding_stream).id) ?? "";
  // The program is the stream id's second part: "EC::H2020::ERC::ERC-STG" -> "H2020".
  const program = text(streamId.split("::")[1]);

  const identifiers: Identifier[] = [];
  const website = text(record.websiteUrl) ?? text(record.websiteurl);
  if (funderId === EC_ROR_ID) identifiers.push({ scheme: "url", identifier: `https://cordis.europa.eu/projects/${code}` });
  else if (website) identifiers.push({ scheme: "url", identifier: website });
  const doi = text(record.doi);
  if (doi) identifiers.push({ scheme: "doi", identifier: doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, "") });

  const acronym = text(record.acronym);
  return {
    entry: {
      id,
      number: code,
      title: { en: title },
      ...(acronym ? { acronym } : {}),
      ...(program ? { program } : {}),
      funder: { id: funderId },
      identifiers,
    },
  };
}

async function* projectsIn(source: AsyncIterable<Uint8Array>, file: string): AsyncGenerator<ImportItem<AwardEntry>> {
  let n = 0;
  for await (const line of lines(source)) {
    n++;
    if (!line.trim()) continue;
    const where = file ? `${file} line ${n}` : `line ${n}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      yield { skip: `${where}: invalid JSON: ${(err as Error).message}` };
      continue;
    }
    yield isObject(value) ? mapOpenaireProject(value, where) : { skip: `${where}: not a JSON object` };
  }
}

/**
 * Streams award entries from an OpenAIRE projects dump: a JSON Lines file (gzipped or not), or
 * the Graph's project.tar whose members are gzipped JSON Lines parts.
 */
export async function* readOpenaireProjects(path: string, onProgress?: Progress): AsyncGenerator<ImportItem<AwardEntry>> {
  const count = progressCounter(await fileSize(path), onProgress);
  if (/\.(tar|tar\.gz|tgz)$/i.test(path)) {
    for await (const member of tarMembers(path, count)) {
      const name = member.name.toLowerCase();
      if (name.endsWith(".json.gz")) yield* projectsIn(gunzip(member.content), member.name);
      else if (name.endsWith(".json") || name.endsWith(".jsonl")) yield* projectsIn(member.content, member.name);
    }
    return;
  }
  yield* projectsIn(fileContent(path, count), "");
}
