// The notice of a query the search could not read as a query and searched as its plain words
// (Cairn decision 9): why, in words, and which words were searched.
import { QUERY_FALLBACK, type QueryFallback } from "../../records/search";

/** The parser's reasons (search/query-string.ts ParseError) as a person reads them. */
const REASONS: Record<string, string> = {
  "unclosed quote": "a quotation mark is not closed",
  "unclosed range": "a range such as [2020 TO 2024] is not closed",
  "malformed range": "a range is not written as [from TO to]",
  "comparison without value": "a comparison such as >2020 has no value",
  "missing )": "a parenthesis is not closed",
  "trailing input": "a closing parenthesis has no opening one",
  "unexpected end": "it ends where a word was expected (after AND, OR, NOT, + or -)",
  "field without value": "a field name has no value after its colon",
  "unexpected op": "AND, OR or a parenthesis stands where a word was expected",
  "_exists_ needs a field name": "_exists_ needs a field name",
};

const reasonText = (reason: string) => REASONS[reason] ?? (reason.startsWith("nested more than") ? `parentheses are ${reason}` : reason);

/** The fallback the records service noted on a search's answer, if any. */
export const queryFallbackOf = (result: unknown): QueryFallback | null =>
  result && typeof result === "object" ? ((result as { [QUERY_FALLBACK]?: QueryFallback })[QUERY_FALLBACK] ?? null) : null;

export function QueryFallbackNotice({ fallback }: { fallback: QueryFallback }) {
  return (
    <p class="notice query-fallback" role="status">
      Your query could not be read as a query ({reasonText(fallback.reason)});{" "}
      {fallback.words.length ? (
        <>
          showing results for the words{" "}
          {fallback.words.map((word, i) => (
            <>
              {i > 0 ? " " : ""}
              <q>{word}</q>
            </>
          ))}
        </>
      ) : (
        <>it has no words to search for, so every record is shown</>
      )}
      . <a href="/search/help">How to write a query</a>
    </p>
  );
}
