// What the vocabulary index on PostgreSQL adds to the shared full-text literals (search/postgres/text.ts):
// a column's words are marked with the column's index in its kind (`|0|ocean`), and its weight
// label comes from the kind's relative weights.
import { documentOf as documentOfColumns, type DocumentColumn } from "../../search/postgres/text";
import type { Kind } from "../kinds";

/** The names the index marks `columns` (of the kind's) with: their indexes. */
export const markNamesOf = (kind: Kind, columns: string[]) => columns.map((c) => String(kind.columns.indexOf(c)));

/** Each column's weight label (A for the heaviest), from the kind's relative weights. */
export function labelsOf(kind: Kind): DocumentColumn["weight"][] {
  const distinct = [...new Set(kind.weights)].sort((a, b) => b - a);
  return kind.weights.map((w) => (["A", "B", "C", "D"] as const)[Math.min(distinct.indexOf(w), 3)]!);
}

/** ts_rank's weights ({D, C, B, A}) as a float4[] literal: each label's share of the heaviest weight. */
export function rankWeightsOf(kind: Kind): string {
  const labels = labelsOf(kind);
  const top = Math.max(...kind.weights);
  const of = (label: DocumentColumn["weight"]) => {
    const i = labels.indexOf(label);
    return i < 0 ? 0.1 : kind.weights[i]! / top;
  };
  return `'{${(["D", "C", "B", "A"] as const).map(of).join(",")}}'`;
}

/** An entry's column texts (in the kind's column order) as a tsvector literal. */
export function documentOf(kind: Kind, texts: string[]): string {
  const labels = labelsOf(kind);
  return documentOfColumns(texts.map((text, i) => ({ name: String(i), weight: labels[i]!, text })));
}
