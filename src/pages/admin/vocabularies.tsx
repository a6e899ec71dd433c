// Administration → Vocabularies: each vocabulary with its number of entries; one vocabulary's
// entries searched and paged (the same search as /api/vocabularies), with add, edit and retire
// where its rule allows (vocabularies/policy.ts) and the retired entries apart; and the imports:
// upload a dump or download ROR's newest release, each a job whose progress and result show here.
import type { JobRow } from "../../jobs/service";
import type { ImportResult } from "../../vocabularies/import-job";
import { IMPORTABLE_TYPES, RELEASE_TYPES, type EditRule } from "../../vocabularies/model";
import { registerAsset } from "../assets";
import { CsrfField, PostButton } from "../forms";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, AdminPager, ConfirmStep, queryOf, TableBox, when } from "./frame";
import { JobProgress } from "./jobs";
import uploadJs from "../static/vocabulary-upload.js" with { type: "text" };
import { formatCount } from "../numbers";

registerAsset("vocabulary-upload.js", uploadJs);

export const VOCABULARIES = "/administration/vocabularies";
export const IMPORTS = `${VOCABULARIES}/imports`;

type Entry = Record<string, any>;

export interface TypeRow {
  type: string;
  entries: number;
  rule: EditRule | null;
}

const typePath = (type: string) => `${VOCABULARIES}/${encodeURIComponent(type)}`;
const entryPath = (type: string, action: string, id: string) => `${typePath(type)}/${action}${queryOf({ id })}`;

/** What the rule allows, in words. */
const ruleText = (rule: EditRule | null) =>
  rule === null ? "Read-only" : rule.fields === "title" ? "Labels editable" : [rule.add ? "add" : null, "edit", rule.retire ? "retire" : null].filter(Boolean).join(", ");

/** An entry's label in the list: its title, name or subject. */
export const labelOf = (e: Entry): string => e.title?.en ?? (e.title ? Object.values(e.title)[0] : undefined) ?? e.name ?? e.subject ?? e.id;

function Imports({ ctx, imports }: { ctx: PageContext; imports: JobRow[] }) {
  return (
    <section aria-labelledby="imports-heading">
      <h2 id="imports-heading">Imports</h2>
      <div class="card">
        <h3>Upload a dump</h3>
        <p>
          ROR (affiliations, funders: the <code>*_schema_v2.json</code>, plain or gzipped), ORCID summaries (names: <code>.tar.gz</code> or <code>.xml</code>), OpenAIRE projects
          (awards), or CSV/JSON lines/YAML (names, subjects). The file streams to the data directory and is imported by a job; larger dumps go faster with{" "}
          <code>cairn vocabularies import</code>.
        </p>
        <form id="vocabulary-upload" method="post" action={`${IMPORTS}/upload`} data-upload={`${IMPORTS}/upload`}>
          <CsrfField ctx={ctx} />
          <label for="upload-type">Vocabulary</label>
          <select id="upload-type" name="type">
            {IMPORTABLE_TYPES.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
          <label for="upload-file">Dump file</label>
          <input id="upload-file" name="file" type="file" required />
          <progress id="upload-progress" max="100" value="0" aria-label="Upload of the dump" hidden />
          <p id="upload-status" role="status" class="muted" />
          <div class="actions">
            <button type="submit">Upload and import</button>
          </div>
        </form>
      </div>
      <div class="card">
        <h3>Download the newest ROR release</h3>
        <p>Asks VOCABULARIES_ROR_DUMP_URL for ROR's newest data dump, downloads its zip and imports the JSON inside (as InvenioRDM's ror-http origin).</p>
        <form method="post" action={`${IMPORTS}/release`}>
          <CsrfField ctx={ctx} />
          <label for="release-type">Into</label>
          <select id="release-type" name="type">
            {RELEASE_TYPES.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
          <div class="actions">
            <button type="submit">Download and import</button>
          </div>
        </form>
      </div>
      <h3>Running and recent imports</h3>
      {imports.length === 0 ? <p class="muted">No import has run yet.</p> : <ImportsTable imports={imports} />}
    </section>
  );
}

/** A finished import's totals, a failed one's error, or where an unfinished one is. */
function resultText(job: JobRow): string {
  if (job.status === "failed") return job.lastError ?? "Failed";
  if (job.status !== "succeeded") return job.status === "queued" ? "Waiting to run" : "Running";
  const r = job.result as ImportResult | null;
  if (!r || typeof r.created !== "number") return "Done";
  const skipped = Object.values(r.skipped ?? {}).reduce((a, b) => a + b, 0);
  return `${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${skipped} skipped`;
}

function ImportsTable({ imports }: { imports: JobRow[] }) {
  return (
    <TableBox label="Table of imports">
      <DataTable caption="Vocabulary imports, newest first" columns={["Job", "Vocabulary", "Source", "Queued", "State", "Progress", "Result"]}>
        {imports.map((job) => {
          const payload = (job.payload ?? {}) as { type?: string; name?: string };
          return (
            <tr data-import-job={String(job.id)}>
              <th scope="row">{String(job.id)}</th>
              <td>{payload.type ?? "—"}</td>
              <td>{payload.name ?? "—"}</td>
              <td>{when(job.created)}</td>
              <td>{job.status}</td>
              <td>
                <JobProgress job={job} />
              </td>
              <td class={job.status === "failed" ? "error-text" : undefined}>{resultText(job)}</td>
            </tr>
          );
        })}
      </DataTable>
    </TableBox>
  );
}

export function VocabulariesPage({ ctx, mailOff, types, imports, notice }: { ctx: PageContext; mailOff: boolean; types: TypeRow[]; imports: JobRow[]; notice?: string }) {
  return (
    <AdminPage ctx={ctx} title="Vocabularies" screen={VOCABULARIES} mailOff={mailOff} notice={notice} scripts={["vocabulary-upload.js"]}>
      <TableBox label="Table of vocabularies">
        <DataTable caption="Vocabularies and their entries" columns={["Vocabulary", "Entries offered", "By hand"]}>
          {types.map((t) => (
            <tr data-vocabulary={t.type}>
              <th scope="row">
                <a href={typePath(t.type)}>{t.type}</a>
              </th>
              <td>{formatCount(t.entries)}</td>
              <td>{ruleText(t.rule)}</td>
            </tr>
          ))}
        </DataTable>
      </TableBox>
      <Imports ctx={ctx} imports={imports} />
    </AdminPage>
  );
}

export interface TypeView {
  type: string;
  rule: EditRule | null;
  q: string;
  page: number;
  size: number;
  hits: Entry[];
  total: number;
  retired: Entry[] | null;
}

function EntryActions({ view, entry }: { view: TypeView; entry: Entry }) {
  const label = labelOf(entry);
  if (!view.rule) return <span class="muted">—</span>;
  return (
    <span class="actions">
      <a href={entryPath(view.type, "edit", entry.id)} aria-label={`Edit ${label}`}>
        Edit
      </a>
      {view.rule.retire ? (
        <a href={entryPath(view.type, "retire", entry.id)} aria-label={`Retire ${label}`}>
          Retire
        </a>
      ) : null}
    </span>
  );
}

function Retired({ ctx, type, entries }: { ctx: PageContext; type: string; entries: Entry[] }) {
  return (
    <section aria-labelledby="retired-heading">
      <h2 id="retired-heading">Retired entries</h2>
      <p>Not offered to new deposits; records that name them keep them.</p>
      {entries.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <TableBox label="Table of retired entries">
          <DataTable caption="Retired entries, newest first" columns={["Id", "Label", "Retired", "Action"]}>
            {entries.map((e) => (
              <tr data-retired-id={e.id}>
                <th scope="row">{e.id}</th>
                <td>{labelOf(e)}</td>
                <td>{when(Date.parse(e.retired))}</td>
                <td>
                  <PostButton ctx={ctx} action={entryPath(type, "restore", e.id)} label={`Offer ${labelOf(e)} again`} secondary />
                </td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}

export function VocabularyPage({ ctx, mailOff, view, notice }: { ctx: PageContext; mailOff: boolean; view: TypeView; notice?: string }) {
  return (
    <AdminPage ctx={ctx} title={`Vocabulary: ${view.type}`} screen={VOCABULARIES} mailOff={mailOff} notice={notice}>
      <p>
        <a href={VOCABULARIES}>All vocabularies</a> · {ruleText(view.rule)}
        {view.rule?.add ? (
          <>
            {" · "}
            <a href={`${typePath(view.type)}/new`}>Add an entry</a>
          </>
        ) : null}
      </p>
      <form class="card filters" method="get" action={typePath(view.type)} role="search" aria-label={`Entries of ${view.type}`}>
        <label for="vocabulary-q">Search</label>
        <input id="vocabulary-q" name="q" type="search" value={view.q} maxlength={200} />
        <div class="actions">
          <button type="submit">Search entries</button>
        </div>
      </form>
      {view.hits.length === 0 ? (
        <p class="muted">No entries{view.q ? " match" : ""}.</p>
      ) : (
        <TableBox label="Table of entries">
          <DataTable caption={`Entries of ${view.type}`} columns={["Id", "Label", "Action"]}>
            {view.hits.map((e) => (
              <tr data-entry-id={e.id}>
                <th scope="row">{e.id}</th>
                <td>{labelOf(e)}</td>
                <td>
                  <EntryActions view={view} entry={e} />
                </td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
      <AdminPager page={view.page} size={view.size} total={view.total} href={(page) => typePath(view.type) + queryOf({ q: view.q, page: page === 1 ? null : page })} />
      {view.retired ? <Retired ctx={ctx} type={view.type} entries={view.retired} /> : null}
    </AdminPage>
  );
}

/** The form's fields per kind of entry: [name, label, value, required]. */
function fieldsOf(type: string, rule: EditRule, entry: Entry | null): [string, string, string, boolean][] {
  const isNew = entry === null;
  const idField: [string, string, string, boolean][] = isNew ? [["id", "Id", "", true]] : [];
  if (rule.fields === "title") return [["title", "Label (English)", entry?.title?.en ?? "", true]];
  if (type === "subjects") return [...idField, ["scheme", "Scheme", entry?.scheme ?? "", true], ["subject", "Subject", entry?.subject ?? "", true]];
  return [
    ...idField,
    ["title", "Title (English)", entry?.title?.en ?? "", true],
    ["description", "Description (English)", entry?.description?.en ?? "", false],
    ["url", "URL", entry?.props?.url ?? "", false],
  ];
}

export function EntryFormPage(props: { ctx: PageContext; mailOff: boolean; type: string; rule: EditRule; entry: Entry | null }) {
  const { ctx, type, rule, entry } = props;
  const title = entry ? `Edit ${labelOf(entry)}` : `Add to ${type}`;
  const action = entry ? entryPath(type, "edit", entry.id) : `${typePath(type)}/new`;
  return (
    <AdminPage ctx={ctx} title={title} screen={VOCABULARIES} mailOff={props.mailOff}>
      <form class="card" method="post" action={action}>
        <CsrfField ctx={ctx} />
        {entry ? <input type="hidden" name="revision" value={String(entry.revision_id)} /> : null}
        {fieldsOf(type, rule, entry).map(([name, label, value, required]) => (
          <>
            <label for={`entry-${name}`}>{label}</label>
            <input id={`entry-${name}`} name={name} type={name === "url" ? "url" : "text"} value={value} required={required} maxlength={name === "description" ? 2000 : 255} />
          </>
        ))}
        <div class="actions">
          <button type="submit">{entry ? "Save" : "Add"}</button>
          <a href={typePath(type)}>Cancel, go back</a>
        </div>
      </form>
    </AdminPage>
  );
}

export function ConfirmRetirePage({ ctx, mailOff, type, entry }: { ctx: PageContext; mailOff: boolean; type: string; entry: Entry }) {
  return (
    <AdminPage ctx={ctx} title={`Retire ${labelOf(entry)}`} screen={VOCABULARIES} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={entryPath(type, "retire", entry.id)}
        question={`Retire ${labelOf(entry)} (${entry.id})?`}
        detail={<p>New deposits no longer find it among the choices; records that name it keep it, and it still shows in their pages and exports. It can be offered again.</p>}
        button="Retire"
        back={typePath(type)}
      />
    </AdminPage>
  );
}
