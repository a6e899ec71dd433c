// The answers of the access-request form: the request sent (or the address to confirm first),
// or the form again with what was typed and why it was refused.
import type { HttpError } from "../../core/errors";
import { Layout, type PageContext } from "../layout";
import { AccessRequestFields } from "./access";

/** The form's fields as the REST API's body (`POST /api/records/{id}/access/request`); empty fields are left out. */
export function accessRequestBody(form: URLSearchParams): Record<string, string> {
  const body: Record<string, string> = { permission: "view", consent_to_share_personal_data: form.get("consent_to_share_personal_data") === "true" ? "true" : "false" };
  for (const field of ["email", "full_name", "message"]) {
    const value = form.get(field)?.trim();
    if (value) body[field] = value;
  }
  return body;
}

/** A validation error's messages by field. */
export function fieldErrorsOf(error: HttpError): Record<string, string[]> {
  return Object.fromEntries((error.errors ?? []).map((e) => [e.field, e.messages]));
}

export function AccessRequestPage(props: { ctx: PageContext; action: string; recordId: string; form: URLSearchParams; message: string; errors: Record<string, string[]> }) {
  const { ctx, form } = props;
  return (
    <Layout ctx={ctx} title="Request access">
      <h1>Request access</h1>
      <p class="notice error" role="alert">
        {props.message} Check the fields below and send the request again.
      </p>
      <AccessRequestFields
        form={{
          action: props.action,
          csrf: ctx.actor.csrf ?? null,
          signedIn: ctx.actor.kind === "user",
          email: form.get("email") ?? "",
          fullName: form.get("full_name") ?? "",
          message: form.get("message") ?? "",
          consent: form.get("consent_to_share_personal_data") === "true",
          conditions: null,
          errors: props.errors,
        }}
      />
      <p>
        <a href={`/records/${encodeURIComponent(props.recordId)}`}>Back to the record</a>
      </p>
    </Layout>
  );
}

/** A user's request goes to the owner at once; a guest (or another address) gets a link to confirm first — unless mail is off. */
export function AccessRequestedPage({ ctx, recordUrl, result, mailOff }: { ctx: PageContext; recordUrl: string; result: Record<string, unknown>; mailOff: boolean }) {
  const sentToOwner = typeof result.id === "string" || typeof result.number === "string";
  if (mailOff) {
    return (
      <Layout ctx={ctx} title={sentToOwner ? "Access requested" : "Access request not sent"}>
        <h1>{sentToOwner ? "Access requested" : "Access request not sent"}</h1>
        {sentToOwner ? (
          <p class="notice ok" role="status">
            Your request was sent to the record's owner. It is on their dashboard; this site sends no e-mail at the moment, so follow their answer on{" "}
            <a href="/me/requests">your requests</a>.
          </p>
        ) : (
          <p class="notice warn" role="status">
            Your request is stored, but the owner does not see it yet: it waits until your e-mail address is confirmed through a mailed link, and this site sends no e-mail at the
            moment (mail is off). Ask the record's owner for access another way
            {ctx.actor.kind === "user" ? ", or ask again with your account's address" : ", or sign in and ask with your account"}.
          </p>
        )}
        <p>
          <a href={recordUrl}>Back to the record</a>
        </p>
      </Layout>
    );
  }
  return (
    <Layout ctx={ctx} title="Access requested">
      <h1>Access requested</h1>
      {sentToOwner ? (
        <p class="notice ok" role="status">
          Your request was sent to the record's owner. You will hear of their answer by e-mail, and can follow it on <a href="/me/requests">your requests</a>.
        </p>
      ) : (
        <p class="notice ok" role="status">
          {typeof result.message === "string" ? result.message : "Check your e-mail inbox"}: open the link we sent within 6 hours to confirm your address, and your request goes to
          the record's owner.
        </p>
      )}
      <p>
        <a href={recordUrl}>Back to the record</a>
      </p>
    </Layout>
  );
}
