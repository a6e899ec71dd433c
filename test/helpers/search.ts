// Reading search answers ({ hits: { hits: [...] } }): the hit ids, or the names a test gave them.

/** The ids of the hits, in order. */
export const hitIds = (body: any) => body.hits.hits.map((h: { id: string }) => h.id);

/** The hits as the names they have in `byName` (name -> id, filled as records are made); an unnamed id stays as it is. */
export const hitNames =
  (byName: Record<string, string>) =>
  (body: any): string[] =>
    hitIds(body).map((id: string) => Object.keys(byName).find((name) => byName[name] === id) ?? id);
