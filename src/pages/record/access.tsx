// Who may see a record and its files, said plainly; and the form to ask the owner for access to
// restricted files (as the record's `parent.access.settings` allow for the caller's kind).
import type { JsonObject } from "../../core/json";

type Json = JsonObject;

export interface AccessSummary {
  /** The badge: Open access, Restricted, Embargoed, Metadata only. */
  badge: string;
  kind: "open" | "restricted" | "embargoed" | "metadata-only";
  /** One sentence of what it means. */
  text: string;
}

/** The record's `access.status` as words. */
export function accessSummary(record: Json): AccessSummary {
  const access: Json = record.access ?? {};
  const whole = access.record === "restricted";
  const until = typeof access.embargo?.until === "string" ? access.embargo.until : "";
  switch (access.status) {
    case "embargoed":
      return {
        badge: `Embargoed until ${until}`,
        kind: "embargoed",
        text: `Embargoed until ${until}: ${whole ? "the record and its files" : "the files"} become public on that day.${
          typeof access.embargo?.reason === "string" && access.embargo.reason ? ` Reason: ${access.embargo.reason}` : ""
        }`,
      };
    case "restricted":
      return {
        badge: "Restricted",
        kind: "restricted",
        text: whole
          ? "Restricted: only the owner and the people they give access can see this record and its files."
          : "Restricted: the record is public, but only the owner and the people they give access can download the files.",
      };
    case "metadata-only":
      return { badge: "Metadata only", kind: "metadata-only", text: "Open access: this record describes a work without files." };
    default:
      return { badge: "Open access", kind: "open", text: "Open access: everyone can see this record and download its files." };
  }
}

/** What the request form needs: where it posts, the prefilled values, and the owner's conditions (sanitised HTML). */
export interface AccessRequestForm {
  action: string;
  csrf: string | null;
  signedIn: boolean;
  email: string;
  fullName: string;
  message: string;
  consent: boolean;
  conditions: string | null;
  /** Field errors of a refused submission, by field. */
  errors?: Record<string, string[]>;
  /** Mail is off: a guest's address cannot be confirmed, and nobody hears of the answer by mail. */
  mailOff?: boolean;
}

/** What the form says instead of a mail it cannot send. */
function MailOffText({ signedIn }: { signedIn: boolean }) {
  return (
    <p class="notice warn">
      {signedIn
        ? "This site sends no e-mail at the moment (mail is off): the owner finds your request on their dashboard, and you follow their answer on your requests page. Use your account's address: another address would have to be confirmed by a mailed link."
        : "This site sends no e-mail at the moment (mail is off): a guest's request goes to the owner only after the address is confirmed through a mailed link, which cannot be sent now. Sign in to ask with your account, or ask the owner for access another way."}
    </p>
  );
}

/** The form is offered when the caller cannot download the files and the owner takes requests from their kind (user or guest). */
export function offersAccessRequest(record: Json, signedIn: boolean, readsFiles: boolean): boolean {
  if (readsFiles || record.files?.enabled === false || record.access?.status === "open" || record.access?.status === "metadata-only") return false;
  const settings: Json = record.parent?.access?.settings ?? {};
  return signedIn ? settings.allow_user_requests === true : settings.allow_guest_requests === true;
}

function FieldErrors({ errors, id }: { errors: string[] | undefined; id: string }) {
  if (!errors?.length) return null;
  return (
    <p class="field-error" id={id}>
      {errors.join(" ")}
    </p>
  );
}

export function AccessRequestFields({ form }: { form: AccessRequestForm }) {
  const err = form.errors ?? {};
  return (
    <form class="card access-request" method="post" action={form.action}>
      <h3>Request access to the files</h3>
      {form.conditions ? <div class="description" dangerouslySetInnerHTML={{ __html: form.conditions }} /> : null}
      {form.mailOff ? <MailOffText signedIn={form.signedIn} /> : null}
      {form.csrf ? <input type="hidden" name="csrf" value={form.csrf} /> : null}
      <label for="access-email">Your e-mail address</label>
      <input id="access-email" name="email" type="email" autocomplete="email" required value={form.email} aria-describedby={err.email ? "access-email-error" : undefined} />
      <FieldErrors errors={err.email} id="access-email-error" />
      {form.signedIn ? <p class="muted small">With your account's address the owner gets your request at once; another address has to be confirmed first.</p> : null}
      <label for="access-name">Your full name{form.signedIn ? "" : " (required)"}</label>
      <input id="access-name" name="full_name" type="text" autocomplete="name" required={!form.signedIn} value={form.fullName} />
      <FieldErrors errors={err.full_name} id="access-name-error" />
      <label for="access-message">Message to the owner (why you ask)</label>
      <textarea id="access-message" name="message">
        {form.message}
      </textarea>
      <FieldErrors errors={err.message} id="access-message-error" />
      <div class="check">
        <input id="access-consent" name="consent_to_share_personal_data" type="checkbox" value="true" checked={form.consent} />
        <label for="access-consent">I consent to share my name and e-mail address with the owner</label>
      </div>
      <div class="actions">
        <button type="submit">Request access</button>
      </div>
    </form>
  );
}
