// What the administration may do to each vocabulary by hand: add, edit (which fields), retire. The
// large directories (names, funders, affiliations, awards) are fed by imports, and the controlled
// lists that DataCite, exports and the deposit form map one to one (languages, roles, date and
// relation types…) are read-only; licences and subjects are the lists an installation extends.
import type { EditRule, VocabularyType } from "./model";

/**
 * The issue's "licences, resource types' labels, subjects" are editable; languages and every list
 * not named here are read-only. Resource types keep their ids and DataCite/schema.org mappings
 * (`props`): only their labels change.
 */
const RULES: Partial<Record<VocabularyType, EditRule>> = {
  licenses: { add: true, retire: true, fields: "entry" },
  subjects: { add: true, retire: true, fields: "entry" },
  resourcetypes: { add: false, retire: false, fields: "title" },
};

/** What may be done to a type by hand; null when it is read-only. */
export const editRuleOf = (type: VocabularyType): EditRule | null => RULES[type] ?? null;
