// Account settings of the signed-in person: the profile (name, affiliations, ORCID iD, visibility,
// a new e-mail address confirmed from itself) and the password; and the page the new address's
// confirmation link opens.
import { Elysia } from "elysia";
import type { Actor } from "../core/actor";
import { HttpError, unauthorized, type FieldError } from "../core/errors";
import { cookieOf, SESSION_COOKIE, type ActorContext } from "../core/http";
import { registerAsset } from "./assets";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { CsrfField, FieldErrors, TextField } from "./forms";
import { EXPIRED_FORM, FormAlert, mailedLinkPage, mailIsOff } from "./guest-forms";
import { checkCsrf, endGuestCsrf, formOf, formRefusal, guestCsrfOk, htmlResponse, seeOther } from "./http";
import type { Child } from "./jsx-runtime";
import { Layout, type PageContext } from "./layout";
import type { QuotaUsage } from "../quotas/model";
import { StorageUsage } from "./storage";
import profileJs from "./static/profile.js" with { type: "text" };

const PROFILE = "/account/settings/profile";
const PASSWORD = "/account/settings/password";
const AFFILIATION_SUGGESTIONS = "affiliation-suggestions";

registerAsset("profile.js", profileJs);

/** The settings' own navigation, the current page marked. */
export function SettingsNav({ here }: { here: string }) {
  const pages: [string, string][] = [
    [PROFILE, "Profile"],
    [PASSWORD, "Password"],
    ["/account/settings/linked-accounts", "Linked accounts"],
    ["/account/settings/applications", "Applications"],
  ];
  return (
    <nav class="tabs" aria-label="Account settings">
      {pages.map(([href, label]) => (
        <a href={href} aria-current={href === here ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** A settings page: its heading, the settings' navigation, a notice after a change, and the form's general alert. */
function SettingsPage(props: { ctx: PageContext; title: string; here: string; notice?: string; errors?: FieldError[]; scripts?: string[]; children?: Child }) {
  return (
    <Layout ctx={props.ctx} title={props.title} scripts={props.scripts}>
      <h1>{props.title}</h1>
      <SettingsNav here={props.here} />
      {props.notice ? (
        <p class="notice ok" role="status">
          {props.notice}
        </p>
      ) : null}
      <FormAlert errors={props.errors} />
      {props.children}
    </Layout>
  );
}

interface ProfileView {
  email: string;
  fullName: string;
  affiliations: string;
  orcid: string;
  visibility: string;
}

interface ProfilePageProps {
  ctx: PageContext;
  profile: ProfileView;
  /** The affiliations directory (ROR) has entries: the field suggests them as the person types (profile.js); free text otherwise. */
  directory: boolean;
  errors?: FieldError[];
  notice?: string;
  /** The person's quota and what their files take across all their drafts and records. */
  storage: QuotaUsage;
}

function ProfilePage({ ctx, profile, directory, errors, notice, storage }: ProfilePageProps) {
  return (
    <SettingsPage ctx={ctx} title="Profile" here={PROFILE} notice={notice} errors={errors} scripts={directory ? ["profile.js"] : undefined}>
      <form class="card" method="post" action={PROFILE}>
        <CsrfField ctx={ctx} />
        <TextField field="full_name" label="Full name" autocomplete="name" maxlength={255} value={profile.fullName} errors={errors} />
        <TextField
          field="affiliations"
          label="Affiliation"
          autocomplete="organization"
          maxlength={255}
          value={profile.affiliations}
          errors={errors}
          list={directory ? AFFILIATION_SUGGESTIONS : undefined}
          hint={directory ? "Type a few letters to pick your institution from the directory, or write its name." : undefined}
        />
        {directory ? <datalist id={AFFILIATION_SUGGESTIONS} data-suggest="/api/affiliations" /> : null}
        <TextField
          field="orcid"
          label="ORCID iD"
          value={profile.orcid}
          errors={errors}
          hint="For example 0000-0002-1825-0097; it fills in the first creator of your new uploads."
        />
        <TextField
          field="email"
          label="E-mail address"
          type="email"
          autocomplete="email"
          required
          value={profile.email}
          errors={errors}
          hint="A new address takes effect once you open the link we send to it."
        />
        <fieldset>
          <legend>Profile visibility</legend>
          <label>
            <input type="radio" name="visibility" value="public" checked={profile.visibility === "public"} /> Public: listed in the users directory (your e-mail stays hidden)
          </label>
          <label>
            <input type="radio" name="visibility" value="restricted" checked={profile.visibility === "restricted"} /> Restricted: only you and the administrators see it
          </label>
          <FieldErrors errors={errors} field="visibility" id="visibility-error" />
        </fieldset>
        <div class="actions">
          <button type="submit">Save the profile</button>
        </div>
      </form>
      <section class="card" aria-labelledby="storage-heading">
        <h2 id="storage-heading">Storage</h2>
        <StorageUsage label="All your uploads" usage={storage} />
      </section>
    </SettingsPage>
  );
}

function PasswordPage({ ctx, errors, notice }: { ctx: PageContext; errors?: FieldError[]; notice?: string }) {
  return (
    <SettingsPage ctx={ctx} title="Password" here={PASSWORD} notice={notice} errors={errors}>
      <form class="card" method="post" action={PASSWORD}>
        <CsrfField ctx={ctx} />
        <TextField field="current_password" label="Current password" type="password" autocomplete="current-password" required errors={errors} />
        <TextField field="password" label="New password" type="password" autocomplete="new-password" required errors={errors} hint="At least 8 characters." />
        <div class="actions">
          <button type="submit">Change the password</button>
        </div>
      </form>
      <p class="muted">Changing it signs out every other browser signed in to your account.</p>
    </SettingsPage>
  );
}

/** The signed-in person's id; a guest gets the 401 page with its sign-in link. */
function userIdOf(actor: Actor): number {
  if (actor.kind !== "user") throw unauthorized("Sign in to change your account settings.");
  return actor.userId;
}

export const settingsPages = (http: ActorContext, deps: PagesDeps) => {
  const { users, accounts, sessions, vocabularies, quotas } = deps.services;
  /** Whether the affiliations directory has entries to suggest (the count is kept, not counted). */
  const hasDirectory = async (actor: Actor) => (await vocabularies.search(actor, "affiliations", { size: "1" })).hits.total > 0;
  const profileOf = async (actor: Actor): Promise<ProfileView> => {
    const row = await users.readAccount(actor, userIdOf(actor));
    return { email: row.email, fullName: row.fullName, affiliations: row.affiliations, orcid: row.orcid ?? "", visibility: row.visibility };
  };
  return new Elysia()
    .use(http)
    .get("/account/settings", () => seeOther(PROFILE))
    .get(PROFILE, async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => (
        <ProfilePage
          ctx={ctx}
          profile={await profileOf(actor)}
          directory={await hasDirectory(actor)}
          storage={await quotas.readUserUsage(actor, userIdOf(actor))}
          notice={query.saved === "1" ? "Your profile is saved." : undefined}
        />
      ));
    })
    .post(PROFILE, async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const userId = userIdOf(actor);
        const form = formOf(body);
        checkCsrf(actor, form);
        const sent: ProfileView = {
          email: form.get("email") ?? "",
          fullName: form.get("full_name") ?? "",
          affiliations: form.get("affiliations") ?? "",
          orcid: form.get("orcid") ?? "",
          visibility: form.get("visibility") ?? "",
        };
        const directory = await hasDirectory(actor);
        const storage = await quotas.readUserUsage(actor, userId);
        // Set once the other fields are stored: a refused new address must not hide that they were.
        let saved: Awaited<ReturnType<typeof users.updateProfile>> | null = null;
        try {
          saved = await users.updateProfile(actor, userId, { fullName: sent.fullName, affiliations: sent.affiliations, orcid: sent.orcid, visibility: sent.visibility });
          if (sent.email.trim().toLowerCase() === saved.email.toLowerCase()) return seeOther(`${PROFILE}?saved=1`);
          const asked = await accounts.requestEmailChange(actor, sent.email, sessions.throttleAddressOf(request, server));
          const notice = mailIsOff(deps)
            ? `Your profile is saved. Your e-mail address stays ${saved.email}: the change to ${asked.email} needs a link mailed there, and this site sends no e-mail at the moment (mail is off). Ask the repository's administrators to change it.`
            : `Your profile is saved. To change your e-mail address, open the link we sent to ${asked.email}: until then it stays ${saved.email}.`;
          return <ProfilePage ctx={ctx} profile={{ ...sent, email: saved.email, orcid: saved.orcid ?? "" }} directory={directory} storage={storage} notice={notice} />;
        } catch (error) {
          const refusal = formRefusal(error);
          const notice = saved ? `The rest of your profile is saved; your e-mail address stays ${saved.email}.` : undefined;
          const profile = saved ? { ...sent, orcid: saved.orcid ?? "" } : sent;
          if (refusal)
            return htmlResponse(
              <ProfilePage ctx={ctx} profile={profile} directory={directory} storage={storage} errors={refusal.errors} notice={notice} />,
              refusal.status,
              refusal.headers,
            );
          throw error;
        }
      });
    })
    .get(PASSWORD, async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, () => {
        userIdOf(actor);
        return <PasswordPage ctx={ctx} notice={query.changed === "1" ? "Your password is changed; every other browser signed in to your account is signed out." : undefined} />;
      });
    })
    .post(PASSWORD, async ({ actor, request, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        userIdOf(actor);
        const form = formOf(body);
        checkCsrf(actor, form);
        try {
          await sessions.changePassword(actor, form.get("current_password") ?? "", form.get("password") ?? "", cookieOf(request, SESSION_COOKIE));
        } catch (error) {
          const refusal = formRefusal(error);
          if (refusal) return htmlResponse(<PasswordPage ctx={ctx} errors={refusal.errors} />, refusal.status, refusal.headers);
          throw error;
        }
        return seeOther(`${PASSWORD}?changed=1`);
      });
    })
    .get("/account/confirm-email-change", ({ actor, request, query }) =>
      mailedLinkPage(deps, actor, request, query.token, {
        path: "/account/confirm-email-change",
        title: "Confirm your new e-mail address",
        text: "Confirm that this address is yours: your account then uses it to sign in and for mail.",
        button: "Use this e-mail address",
      }),
    )
    .post("/account/confirm-email-change", async ({ actor, request, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        if (!guestCsrfOk(request, form)) throw new HttpError(403, EXPIRED_FORM[0]!.messages[0]!);
        const done = await accounts.confirmEmailChange(form.get("token") ?? "");
        return htmlResponse(
          <Layout ctx={ctx} title="E-mail address changed">
            <h1>E-mail address changed</h1>
            <p class="notice ok" role="status">
              Your account's e-mail address is now <strong>{done.email}</strong>.
            </p>
          </Layout>,
          200,
          { "Set-Cookie": endGuestCsrf(deps.https) },
        );
      });
    });
};

/** The routes of this file that take forms (the hooks parse their bodies). */
export const SETTINGS_FORM_ROUTES = [`POST ${PROFILE}`, `POST ${PASSWORD}`, "POST /account/confirm-email-change"];
