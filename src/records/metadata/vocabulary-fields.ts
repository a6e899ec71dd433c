// Vocabulary-backed metadata lists: languages, additional titles/descriptions, dates, rights, subjects.
import { EDTF_ERROR, isEdtfDateOrInterval } from "./edtf";
import { type Ctx, MISSING, type Obj, checkKeys, fail, isObject, isWebUrl, minLength, put, readList, readObject, readString, readVocabularyRef, fromVocabulary } from "./fields";
import { sanitizeDescription } from "../../core/html";

export function readLanguages(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => readVocabularyRef(ctx, item, path, "languages", true));
}

/** TitleSchema: title (min 3), type from titletypes (required), lang optional. */
export function readAdditionalTitles(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["title", "type", "lang"]);
    const title = readString(ctx, obj.title, `${path}.title`);
    if (obj.title === undefined || obj.title === null) fail(ctx, `${path}.title`, MISSING);
    minLength(ctx, title, `${path}.title`, 3);
    const out: Obj = {};
    put(out, "title", title);
    put(out, "type", readVocabularyRef(ctx, obj.type, `${path}.type`, "titletypes", true));
    put(out, "lang", readVocabularyRef(ctx, obj.lang, `${path}.lang`, "languages"));
    return out;
  });
}

/** Sanitised HTML with InvenioRDM's minimum length of 3 (after sanitising, as marshmallow loads then validates). */
export function readDescription(ctx: Ctx, value: unknown, field: string, required: boolean): string | undefined {
  const raw = readString(ctx, value, field);
  if (raw === undefined) {
    if (required && (value === undefined || value === null)) fail(ctx, field, MISSING);
    return undefined;
  }
  const clean = sanitizeDescription(raw);
  minLength(ctx, clean, field, 3);
  return clean;
}

/** DescriptionSchema: description (sanitised HTML, min 3), type from descriptiontypes (required), lang optional. */
export function readAdditionalDescriptions(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["description", "type", "lang"]);
    const out: Obj = {};
    put(out, "description", readDescription(ctx, obj.description, `${path}.description`, true));
    put(out, "type", readVocabularyRef(ctx, obj.type, `${path}.type`, "descriptiontypes", true));
    put(out, "lang", readVocabularyRef(ctx, obj.lang, `${path}.lang`, "languages"));
    return out;
  });
}

/** An EDTF level 0 date or interval; an invalid one is kept (drafts) and reported. */
export function readEdtf(ctx: Ctx, value: unknown, field: string, required: boolean): string | undefined {
  const date = readString(ctx, value, field);
  if (date === undefined) {
    if (required && (value === undefined || value === null)) fail(ctx, field, MISSING);
    return undefined;
  }
  if (!isEdtfDateOrInterval(date)) fail(ctx, field, EDTF_ERROR);
  return date;
}

/** DateSchema: date (EDTF), type from datetypes (required), free description. */
export function readDates(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["date", "type", "description"]);
    const out: Obj = {};
    put(out, "date", readEdtf(ctx, obj.date, `${path}.date`, true));
    put(out, "type", readVocabularyRef(ctx, obj.type, `${path}.type`, "datetypes", true));
    put(out, "description", readString(ctx, obj.description, `${path}.description`));
    return out;
  });
}

const LOCALE = /^[a-z]{2}$/;

/** A free-text rights title/description: one language code mapped to text (RightsSchema's locale check). */
function readLocalized(ctx: Ctx, value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || Object.values(value).some((text) => typeof text !== "string")) {
    fail(ctx, field, "Not a valid mapping type.");
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.length > 1) fail(ctx, field, "Only one value is accepted.");
  else if (keys.length === 1 && !LOCALE.test(keys[0]!)) fail(ctx, field, "Not a valid locale.");
  return Object.fromEntries(Object.entries(value as Record<string, string>).map(([lang, text]) => [lang, text.trim()]));
}

/**
 * RightsSchema: a licence `{id}` from the licenses vocabulary, dumped with its title, description,
 * icon and props {url, scheme}; or free text `{title, description?, link?}`. The dumped keys are
 * ignored when a client sends a licence back with its id (InvenioRDM would refuse the mix; we
 * recompute, so GET-modify-PUT works).
 */
export function readRights(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["id", "title", "description", "link"], ["icon", "props"]);
    const id = readString(ctx, obj.id, `${path}.id`);
    if (id) return licence(ctx, id, `${path}.id`);
    const out: Obj = {};
    put(out, "title", readLocalized(ctx, obj.title, `${path}.title`));
    put(out, "description", readLocalized(ctx, obj.description, `${path}.description`));
    const link = readString(ctx, obj.link, `${path}.link`);
    if (link !== undefined && !isWebUrl(link)) fail(ctx, `${path}.link`, "Not a valid URL.");
    put(out, "link", link);
    // InvenioRDM's wording, without a final full stop.
    if (!out.title) fail(ctx, path, "An existing id or a free text title must be present");
    return Object.keys(out).length > 0 ? out : undefined;
  });
}

function licence(ctx: Ctx, id: string, field: string): Obj {
  const out = fromVocabulary(ctx, "licenses", id, field, ["title", "description", "icon", "props"]);
  // Of a licence's props only the URL and scheme are dumped, as InvenioRDM does.
  const all = out.props as Obj | undefined;
  delete out.props;
  const props: Obj = {};
  put(props, "url", all?.url);
  put(props, "scheme", all?.scheme);
  if (Object.keys(props).length > 0) out.props = props;
  return out;
}

/** `{id}` from the subjects vocabulary (dumped with subject and scheme) or a free `{subject}`. */
export function readSubjects(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["id", "subject"], ["scheme"]);
    const id = readString(ctx, obj.id, `${path}.id`);
    const subject = readString(ctx, obj.subject, `${path}.subject`);
    if (id) return fromVocabulary(ctx, "subjects", id, `${path}.id`, ["subject", "scheme"]);
    if (!subject) {
      fail(ctx, path, "An existing id or a free text subject must be present.");
      return undefined;
    }
    return { subject };
  });
}
