// What the search box understands (the query-string syntax of src/search/query-string.ts and the
// field names of the record search schema), shown under the box and as /search/help.
import { DataTable } from "../table";
import type { Child } from "../jsx-runtime";

/** [example, what it finds]: each example is a working query against the record search. */
const SYNTAX: [string, string][] = [
  ["ocean temperature", "records with both words anywhere (words are joined with AND)"],
  ['"sea surface temperature"', "the exact phrase"],
  ["ocean OR sea", "either word"],
  ["ocean NOT arctic", "ocean, but not arctic (also written ocean -arctic)"],
  ["(ocean OR sea) AND salinity", "parentheses group conditions"],
  ["temp*", "words starting with temp (a wildcard at the end of a word)"],
];

const FIELDS: [string, string][] = [
  ["title:buoy", "a word in the title"],
  ['creators.name:"Lovelace, Ada"', "a creator (family name, given name)"],
  ["creators.orcid:0000-0002-1825-0097", "a creator's ORCID"],
  ["description:salinity", "a word in the description"],
  ["keywords:oceanography", "a keyword (subject)"],
  ["doi:10.1234/abcd-1234", "a DOI"],
  ["publisher:Zenodo", "the publisher"],
  ["publication_date:[2020 TO 2022]", "published from 2020 up to and including 2022"],
  ["publication_date:{2020 TO *}", "published after 2020 (braces leave the bound out, * is open)"],
  ["publication_date:>=2023-06", "published in June 2023 or later"],
  ["resource_type:dataset", "a resource type by its id"],
  ["language:eng", "a language by its ISO 639-3 code"],
  ["access_status:open", "open, embargoed, restricted or metadata-only records"],
];

function ExampleTable({ rows, caption }: { rows: [string, string][]; caption: string }) {
  return (
    <DataTable caption={caption} showCaption class="help-table" columns={["Type", "To find"]}>
      {rows.map(([example, meaning]) => (
        <tr>
          <td>
            <code>{example}</code>
          </td>
          <td>{meaning}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The syntax help itself; `children` end it (a link to the search, or to the help's own page). */
export function SearchHelp({ children }: { children?: Child }) {
  return (
    <div class="search-help-body">
      <p>
        Type words to find records that contain all of them. Upper and lower case do not matter. Use the filters beside the results to narrow a search by access, type, language,
        file type or community.
      </p>
      <ExampleTable caption="Words, phrases and operators" rows={SYNTAX} />
      <ExampleTable caption="Fields" rows={FIELDS} />
      <p>
        Operators (<code>AND</code>, <code>OR</code>, <code>NOT</code>, <code>TO</code>) are written in capitals. Put a backslash before a character that has a meaning of its own (
        <code>\:</code>, <code>\(</code>). A query that cannot be read as this syntax is searched as its plain words.
      </p>
      {children}
    </div>
  );
}
