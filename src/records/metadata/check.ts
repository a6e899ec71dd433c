// Validation and normalisation of a draft's metadata and custom_fields, run on every save and on publish.
//
// Pure and synchronous: the records service passes a vocabulary lookup and gets back what to store plus two error
// lists. `errors` are InvenioRDM's schema errors (drafts save with them, publish refuses them);
// `unknownIds` are vocabulary ids that do not exist (InvenioRDM's relation check, a 400 even on a
// draft save). Messages and paths follow InvenioRDM's marshmallow schemas.
import type { FieldError } from "../../core/errors";
import { checkCustomFields } from "./custom-fields";
import { type Ctx, MISSING, type VocabularyLookup, type Obj, UNKNOWN_FIELD, fail, isObject, minLength, put, readList, readString, readVocabularyRef } from "./fields";
import { readFunding } from "./funding";
import { readAlternateIdentifiers, readLocations, readReferences, readRelatedIdentifiers } from "./identifier-fields";
import { readContributors, readCreators } from "./people";
import { readAdditionalDescriptions, readAdditionalTitles, readDates, readDescription, readEdtf, readLanguages, readRights, readSubjects } from "./vocabulary-fields";

// The synchronous lookup the check asks (records/document.ts answers it from entries read beforehand); re-exported for the modules that name it from here.
export type { VocabularyLookup } from "./fields";

export interface MetadataCheck {
  metadata: Record<string, unknown>;
  customFields: Record<string, unknown>;
  errors: FieldError[];
  unknownIds: FieldError[];
}

export const PUBLISHER_REQUIRED = "Missing publisher field required for DOI registration.";

type Reader = (ctx: Ctx, value: unknown, field: string) => unknown;

const absent = (value: unknown) => value === undefined || value === null;

function readTitle(ctx: Ctx, value: unknown, field: string): string | undefined {
  const title = readString(ctx, value, field);
  if (absent(value)) fail(ctx, field, MISSING);
  minLength(ctx, title, field, 3);
  return title;
}

/** InvenioRDM reports an empty creators list with the same message as a missing one. */
function readRequiredCreators(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  const creators = readCreators(ctx, value, field);
  if (absent(value) || (Array.isArray(value) && value.length === 0)) fail(ctx, field, MISSING);
  return creators;
}

/** A list of non-blank strings (sizes, formats). */
function stringList(blankMessage: string): Reader {
  return (ctx, value, field) =>
    readList(ctx, value, field, (item, path) => {
      const text = readString(ctx, item, path);
      if (text === "") fail(ctx, path, blankMessage);
      if (item === null) fail(ctx, path, "Field may not be null.");
      return text;
    });
}

/** Every metadata field InvenioRDM's MetadataSchema loads, in its order; anything else is unknown. */
const READERS: Record<string, Reader> = {
  resource_type: (ctx, value, field) => readVocabularyRef(ctx, value, field, "resourcetypes", true),
  creators: readRequiredCreators,
  title: readTitle,
  additional_titles: readAdditionalTitles,
  publisher: readString,
  publication_date: (ctx, value, field) => readEdtf(ctx, value, field, true),
  subjects: readSubjects,
  contributors: readContributors,
  dates: readDates,
  languages: readLanguages,
  identifiers: readAlternateIdentifiers,
  related_identifiers: readRelatedIdentifiers,
  sizes: stringList("Size cannot be a blank string."),
  formats: stringList("Format cannot be a blank string."),
  version: readString,
  rights: readRights,
  copyright: readString,
  description: (ctx, value, field) => readDescription(ctx, value, field, false),
  additional_descriptions: readAdditionalDescriptions,
  locations: readLocations,
  funding: readFunding,
  references: readReferences,
};

/**
 * Checks and normalises `metadata` and `custom_fields`. Lenient like InvenioRDM's draft load:
 * whatever arrives in a recognisable shape is kept (with its errors listed) so incomplete work
 * saves; values of the wrong type and unknown keys are reported and left out.
 */
export function checkMetadata(input: { metadata?: unknown; custom_fields?: unknown }, lookup: VocabularyLookup, options: { publisherRequired: boolean }): MetadataCheck {
  const ctx: Ctx = { lookup, errors: [], unknownIds: [] };
  const metadata: Obj = {};
  const raw = absent(input.metadata) ? {} : input.metadata;
  if (!isObject(raw)) {
    fail(ctx, "metadata", "Invalid input type.");
  } else {
    for (const [key, read] of Object.entries(READERS)) put(metadata, key, read(ctx, raw[key], `metadata.${key}`));
    for (const key of Object.keys(raw)) if (!(key in READERS)) fail(ctx, `metadata.${key}`, UNKNOWN_FIELD);
  }
  // DataCite requires a publisher: the DOI provider refuses to publish without one.
  if (options.publisherRequired && !metadata.publisher) fail(ctx, "metadata.publisher", PUBLISHER_REQUIRED);
  const customFields = checkCustomFields(input.custom_fields, ctx.errors);
  return { metadata, customFields, errors: ctx.errors, unknownIds: ctx.unknownIds };
}
