// A parent's access settings (`parent.access.settings`): their defaults, their JSON, and the body of
// `PUT /api/records/{id}/access` that sets them and may transfer the record to another owner.
import { validationError, type FieldError } from "../core/errors";
import { sanitizeDescription } from "../core/html";

export interface AccessSettings {
  allow_user_requests: boolean;
  allow_guest_requests: boolean;
  /** Sanitised HTML shown to whoever asks for access; null: none. */
  accept_conditions_text: string | null;
  /** Days the access granted through a new request lasts; 0: no end. */
  secret_link_expiration: number;
}

export const DEFAULT_SETTINGS: AccessSettings = {
  allow_user_requests: false,
  allow_guest_requests: false,
  accept_conditions_text: null,
  secret_link_expiration: 0,
};

export const MAX_LINK_EXPIRATION_DAYS = 365;
/** Longest conditions text accepted (characters, before sanitising). */
export const MAX_CONDITIONS_LENGTH = 10_000;

/** The stored settings (whatever the column holds) with the defaults for what is missing or malformed. */
export function settingsJson(stored: unknown): AccessSettings {
  const raw = typeof stored === "object" && stored !== null ? (stored as Record<string, unknown>) : {};
  const days = raw.secret_link_expiration;
  return {
    allow_user_requests: raw.allow_user_requests === true,
    allow_guest_requests: raw.allow_guest_requests === true,
    accept_conditions_text: typeof raw.accept_conditions_text === "string" && raw.accept_conditions_text ? raw.accept_conditions_text : null,
    secret_link_expiration: Number.isInteger(days) && (days as number) >= 0 && (days as number) <= MAX_LINK_EXPIRATION_DAYS ? (days as number) : 0,
  };
}

/** What a settings body asks for: the settings it names (others keep their values) and the new owner, if any. */
export interface SettingsChange {
  settings: Partial<AccessSettings>;
  /** The user id of `owned_by.user`; undefined when the body does not name an owner. */
  owner?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof AccessSettings)[];
/** Keys of `parent.access` a client may send back as it read them; changed through their own endpoints. */
const IGNORED_KEYS = new Set(["grants", "links"]);

function readSetting(key: keyof AccessSettings, value: unknown, field: string, errors: FieldError[]): AccessSettings[typeof key] | undefined {
  switch (key) {
    case "allow_user_requests":
    case "allow_guest_requests":
      if (typeof value === "boolean") return value;
      errors.push({ field, messages: ["Not a valid boolean."] });
      return undefined;
    case "accept_conditions_text": {
      if (value === null) return null;
      if (typeof value !== "string") errors.push({ field, messages: ["Not a valid string."] });
      else if (value.length > MAX_CONDITIONS_LENGTH) errors.push({ field, messages: [`Longer than maximum length ${MAX_CONDITIONS_LENGTH}.`] });
      else return sanitizeDescription(value) || null;
      return undefined;
    }
    case "secret_link_expiration":
      if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_LINK_EXPIRATION_DAYS) return value;
      errors.push({ field, messages: [`Must be a whole number of days between 0 and ${MAX_LINK_EXPIRATION_DAYS}.`] });
      return undefined;
  }
}

/** `owned_by: {user: "<id>"}` -> the user id; a field error otherwise. */
function readOwner(value: unknown, errors: FieldError[]): number | undefined {
  const user = isObject(value) ? value.user : undefined;
  const id = typeof user === "number" ? String(user) : user;
  if (typeof id === "string" && /^\d{1,15}$/.test(id.trim())) return Number(id.trim());
  errors.push({ field: isObject(value) ? "owned_by.user" : "owned_by", messages: ['Must be an object such as {"user": "<user id>"}.'] });
  return undefined;
}

/**
 * The body of `PUT /api/records/{id}/access`: the four settings at the top level or under
 * `settings` (InvenioRDM's `parent.access` shape), and `owned_by`; 400 with every problem.
 */
export function readSettingsBody(body: unknown): SettingsChange {
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const errors: FieldError[] = [];
  const settings: Partial<AccessSettings> = {};
  const take = (source: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(source)) {
      if (!SETTING_KEYS.includes(key as keyof AccessSettings)) continue;
      const read = readSetting(key as keyof AccessSettings, value, prefix + key, errors);
      if (read !== undefined) (settings as Record<string, unknown>)[key] = read;
    }
  };
  for (const key of Object.keys(body)) {
    if (!SETTING_KEYS.includes(key as keyof AccessSettings) && key !== "settings" && key !== "owned_by" && !IGNORED_KEYS.has(key)) {
      errors.push({ field: key.slice(0, 100), messages: ["Unknown field."] });
    }
  }
  take(body, "");
  if (body.settings !== undefined) {
    if (!isObject(body.settings)) errors.push({ field: "settings", messages: ["Must be an object."] });
    else {
      for (const key of Object.keys(body.settings)) {
        if (!SETTING_KEYS.includes(key as keyof AccessSettings)) errors.push({ field: `settings.${key.slice(0, 100)}`, messages: ["Unknown field."] });
      }
      take(body.settings, "settings.");
    }
  }
  const owner = body.owned_by === undefined ? undefined : readOwner(body.owned_by, errors);
  if (errors.length) throw validationError(errors);
  return { settings, ...(owner !== undefined ? { owner } : {}) };
}
