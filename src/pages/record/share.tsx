// The Share dialog of a record's landing page (owner and whoever manages it): access requests and
// their settings, grants to people and groups, secret links and the owner. Its forms are sent by
// share.js to the REST API (`/api/records/{id}/access/*`, `/api/requests/{id}/actions/*`) as
// InvenioRDM's sharing modal does; the body is re-read from `/records/{id}/share` after each change.
import type { ShareView } from "./share-view";

const PERMISSIONS: [string, string][] = [
  ["view", "Can view"],
  ["preview", "Can preview drafts"],
  ["edit", "Can edit"],
  ["manage", "Can manage"],
];
const LINK_PERMISSIONS = PERMISSIONS.filter(([p]) => p !== "manage");
const permissionLabel = (p: string) => PERMISSIONS.find(([k]) => k === p)?.[1] ?? p;

function PermissionSelect({ id, choices, value = "view" }: { id: string; choices: [string, string][]; value?: string }) {
  return (
    <select id={id} name="permission">
      {choices.map(([v, label]) => (
        <option value={v} selected={v === value}>
          {label}
        </option>
      ))}
    </select>
  );
}

/** An exact day: the browser's date picker, with the typed form for browsers without one. */
function ExpiryField({ id, label, min }: { id: string; label: string; min: string }) {
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} name="expires_at" type="date" min={min} aria-describedby={`${id}-hint`} />
      <p class="muted small" id={`${id}-hint`}>
        YYYY-MM-DD. Empty: no end.
      </p>
    </>
  );
}

function SettingsForm({ view }: { view: ShareView }) {
  const s = view.settings;
  return (
    <section aria-labelledby="share-requests-heading">
      <h3 id="share-requests-heading">Access requests</h3>
      {view.recordRestricted ? (
        <p class="notice">
          This record itself is restricted: visitors cannot see it, so they cannot ask for access. Requests are for the restricted files of a public record; share this one with a
          person, a group or a secret link below.
        </p>
      ) : null}
      <form data-share="settings">
        <div class="check">
          <input id="share-allow-users" name="allow_user_requests" type="checkbox" value="true" checked={s.allowUsers} />
          <label for="share-allow-users">Signed-in users may ask for access to the files</label>
        </div>
        <div class="check">
          <input id="share-allow-guests" name="allow_guest_requests" type="checkbox" value="true" checked={s.allowGuests} />
          <label for="share-allow-guests">Guests (without an account) may ask for access to the files</label>
        </div>
        <label for="share-conditions">Conditions shown to whoever asks (optional; HTML allowed)</label>
        <textarea id="share-conditions" name="accept_conditions_text">
          {s.conditions}
        </textarea>
        <label for="share-days">Access given by accepting a request lasts (days)</label>
        <input id="share-days" name="secret_link_expiration" type="number" min="0" max="365" step="1" value={String(s.days)} aria-describedby="share-days-hint" />
        <p class="muted small" id="share-days-hint">
          0: until you take it back. When you accept a request you may choose another end.
        </p>
        <div class="actions">
          <button type="submit">Save access request settings</button>
        </div>
      </form>
      {view.mailOff ? (
        <p class="muted small">
          Mail is off on this site: requests are stored and listed below and on your dashboard, but nobody is told by e-mail, and a guest cannot confirm their address to send one.
        </p>
      ) : null}
      <h4>Waiting for your answer</h4>
      {view.requests.length ? (
        <ul class="plain share-list">
          {view.requests.map((r) => (
            <li>
              <a href={`/me/requests/${encodeURIComponent(r.id)}`}>{r.title}</a>{" "}
              <span class="muted">
                from {r.from}, {r.created}
              </span>
              <span class="share-row-actions">
                <button
                  type="button"
                  data-share-action={`/api/requests/${encodeURIComponent(r.id)}/actions/accept`}
                  data-method="POST"
                  data-share-done="Request accepted: they have access now."
                >
                  Accept
                </button>
                <button
                  type="button"
                  class="secondary"
                  data-share-action={`/api/requests/${encodeURIComponent(r.id)}/actions/decline`}
                  data-method="POST"
                  data-share-confirm="Decline this request?"
                  data-share-done="Request declined."
                >
                  Decline
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No open requests.</p>
      )}
    </section>
  );
}

/** The look-up of a user or group: words typed, Find lists the matches in the select the form sends. */
/** The form that gives a person (`user`) or a group (`role`) access: who, with what permission, until when. */
function GrantForm(props: { summary: string; subjectType: "user" | "role"; prefix: string; label: string; kind: "users" | "groups"; today: string }) {
  const { prefix } = props;
  return (
    <details class="share-add">
      <summary>{props.summary}</summary>
      <form data-share="grant" data-subject-type={props.subjectType}>
        <SubjectPicker prefix={prefix} label={props.label} kind={props.kind} />
        <label for={`${prefix}-permission`}>Permission</label>
        <PermissionSelect id={`${prefix}-permission`} choices={PERMISSIONS} />
        <ExpiryField id={`${prefix}-expiry`} label="Access ends after (optional)" min={props.today} />
        <div class="actions">
          <button type="submit">Give access</button>
        </div>
      </form>
    </details>
  );
}

function SubjectPicker({ prefix, label, kind }: { prefix: string; label: string; kind: "users" | "groups" }) {
  return (
    <>
      <label for={`${prefix}-q`}>{label}</label>
      <div class="share-find">
        <input id={`${prefix}-q`} type="search" data-share-find={kind} data-share-target={`${prefix}-subject`} autocomplete="off" />
        <button type="button" class="secondary" data-share-find-button={`${prefix}-q`}>
          Find
        </button>
      </div>
      <label for={`${prefix}-subject`}>{kind === "users" ? "Person" : "Group"}</label>
      <select id={`${prefix}-subject`} name="subject" required>
        <option value="">Type a name and press Find</option>
      </select>
      <p class="muted small" role="status" id={`${prefix}-status`}></p>
    </>
  );
}

function GrantsSection({ view }: { view: ShareView }) {
  const id = encodeURIComponent(view.recordId);
  return (
    <section aria-labelledby="share-grants-heading">
      <h3 id="share-grants-heading">People and groups</h3>
      {view.grants.length ? (
        <ul class="plain share-list">
          {view.grants.map((g) => (
            <li>
              <strong>{g.name}</strong> <span class="muted">{g.kind === "groups" ? "(group) " : ""}</span>
              {permissionLabel(g.permission)}
              {g.expires ? <span class="muted"> until {g.expires}</span> : null}
              <span class="share-row-actions">
                <button
                  type="button"
                  class="secondary"
                  data-share-action={`/api/records/${id}/access/${g.kind}/${encodeURIComponent(g.subject)}`}
                  data-method="DELETE"
                  data-share-confirm={`Take access away from ${g.name}?`}
                  data-share-done={`Access of ${g.name} revoked.`}
                  aria-label={`Revoke access of ${g.name}`}
                >
                  Revoke
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">Nobody has been given access.</p>
      )}
      <GrantForm summary="Give a person access" subjectType="user" prefix="share-user" label="Name, username or e-mail domain" kind="users" today={view.today} />
      <GrantForm summary="Give a group access" subjectType="role" prefix="share-group" label="Group name" kind="groups" today={view.today} />
    </section>
  );
}

function LinksSection({ view }: { view: ShareView }) {
  const id = encodeURIComponent(view.recordId);
  return (
    <section aria-labelledby="share-links-heading">
      <h3 id="share-links-heading">Secret links</h3>
      <p class="muted small">Whoever has a secret link opens the record with its permission, signed in or not. Its address is shown once, when you make it.</p>
      {view.links.length ? (
        <ul class="plain share-list">
          {view.links.map((l) => (
            <li>
              {permissionLabel(l.permission)} <span class="muted">made {l.created}</span>
              {l.expires ? <span class="muted">, until {l.expires}</span> : null}
              {l.description ? <span> — {l.description}</span> : null}
              <span class="share-row-actions">
                <button
                  type="button"
                  class="secondary"
                  data-share-action={`/api/records/${id}/access/links/${encodeURIComponent(l.id)}`}
                  data-method="DELETE"
                  data-share-confirm="Revoke this link? Whoever has it can no longer open the record with it."
                  data-share-done="The link is revoked."
                  aria-label={`Revoke the link made ${l.created}${l.description ? ` (${l.description})` : ""}`}
                >
                  Revoke
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No secret links.</p>
      )}
      <details class="share-add">
        <summary>Make a secret link</summary>
        <form data-share="link" data-page-url={view.pageUrl}>
          <label for="share-link-permission">Permission</label>
          <PermissionSelect id="share-link-permission" choices={LINK_PERMISSIONS} />
          <ExpiryField id="share-link-expiry" label="The link works until (optional)" min={view.today} />
          <label for="share-link-description">Note for yourself (optional)</label>
          <input id="share-link-description" name="description" type="text" maxlength={1000} />
          <div class="actions">
            <button type="submit">Make the link</button>
          </div>
        </form>
      </details>
    </section>
  );
}

function OwnerSection({ view }: { view: ShareView }) {
  return (
    <section aria-labelledby="share-owner-heading">
      <h3 id="share-owner-heading">Owner</h3>
      <p>
        Owned by <strong>{view.owner}</strong>.
      </p>
      <details class="share-add">
        <summary>Transfer ownership</summary>
        <form data-share="owner" data-share-confirm="Give this record, every version and draft, to this person? You keep access only if they give it to you.">
          <SubjectPicker prefix="share-owner" label="The new owner's name, username or e-mail domain" kind="users" />
          <div class="actions">
            <button type="submit">Transfer ownership</button>
          </div>
        </form>
      </details>
    </section>
  );
}

/** The dialog's content (also the page `/records/{id}/share` a script re-reads after a change). */
export function ShareBody({ view }: { view: ShareView }) {
  return (
    <div id="share-body" data-record={view.recordId}>
      <p class="notice error" role="alert" id="share-error" hidden></p>
      <p class="notice ok" role="status" id="share-status" hidden></p>
      <div class="share-new-link" id="share-new-link" hidden>
        <label for="share-new-link-url">The new secret link (copy it now: it is shown only once)</label>
        <div class="share-find">
          <input id="share-new-link-url" type="text" readonly />
          <button type="button" data-share-copy="share-new-link-url">
            Copy
          </button>
        </div>
      </div>
      <SettingsForm view={view} />
      <GrantsSection view={view} />
      <LinksSection view={view} />
      <OwnerSection view={view} />
    </div>
  );
}

/** The Share button and its dialog, placed in the landing page's Manage box. */
export function ShareDialog({ view }: { view: ShareView }) {
  return (
    <>
      <a class="button secondary" href={`/records/${encodeURIComponent(view.recordId)}/share`} data-share-open="share-dialog">
        Share
      </a>
      <dialog id="share-dialog" class="share-dialog" aria-labelledby="share-title">
        <div class="share-head">
          <h2 id="share-title">Share this record</h2>
          <button type="button" class="secondary" data-share-close aria-label="Close the Share dialog">
            Close
          </button>
        </div>
        <ShareBody view={view} />
      </dialog>
    </>
  );
}
