// The community pages' bodies: the list with its search, a community's page (its head, records
// search, curation policy and about page) and the form pages (new community, settings).
import type { FieldError } from "../../core/errors";
import type { PagesDeps } from "../context";
import { Layout, type PageContext } from "../layout";
import type { SearchOutcome } from "../search/cards";
import { Results, SearchBox } from "../search/parts";
import { HelpDisclosure, RecordResults, searchLimits } from "../search/results";
import type { SearchState } from "../search/state";
import { CommunityForm, type CommunityFormValues } from "./form";
import { CommunityCard, CommunityHead, CommunityTabs, titleOf } from "./parts";

type Json = Record<string, any>;

export function CommunitiesListPage(props: { ctx: PageContext; deps: PagesDeps; state: SearchState; outcome: SearchOutcome; logos: Set<string>; canCreate: boolean }) {
  const { ctx, state, outcome } = props;
  const limits = searchLimits(props.deps);
  return (
    <Layout ctx={ctx} title="Communities" scripts={["search.js"]}>
      <div class="search-page">
        <div class="page-head">
          <h1>Communities</h1>
          {props.canCreate ? (
            <a class="button" href="/communities/new">
              New community
            </a>
          ) : null}
        </div>
        <p>Communities gather the records of a group, project or topic, curated by their members.</p>
        <SearchBox state={state} label="Search communities" placeholder="Name or words of the description" />
        <Results
          state={state}
          result={outcome.result}
          problem={outcome.problem}
          sortOptions={limits.communitySorts}
          sizes={limits.sizes}
          maxWindow={limits.maxWindow}
          heading="Communities found"
          noun={["community", "communities"]}
          card={(c) => <CommunityCard community={c} has={props.logos.has(String(c.id))} />}
          empty="No communities match this search."
        />
      </div>
    </Layout>
  );
}

export interface CommunityPageProps {
  ctx: PageContext;
  deps: PagesDeps;
  community: Json;
  hasLogo: boolean;
  /** Whether the Members and Settings tabs are shown (what the services would let the caller do). */
  members: boolean;
  settings: boolean;
  /** Whether the Requests tab is shown (curators and up). */
  requests: boolean;
  state: SearchState;
  outcome: SearchOutcome;
  notice?: string;
}

/** User HTML that the communities service sanitised when it was saved. */
const Sanitised = ({ html }: { html: string }) => <div class="prose" dangerouslySetInnerHTML={{ __html: html }} />;

export function CommunityPage(props: CommunityPageProps) {
  const { ctx, community, state, outcome } = props;
  const m = (community.metadata ?? {}) as Json;
  return (
    <Layout ctx={ctx} title={titleOf(community)} scripts={["search.js"]}>
      <div class="community-page search-page">
        <CommunityHead community={community} has={props.hasLogo} />
        <CommunityTabs community={community} current="records" members={props.members} settings={props.settings} requests={props.requests} />
        {props.notice ? (
          <p class="notice ok" role="status">
            {props.notice}
          </p>
        ) : null}
        {m.description ? <p class="lead">{String(m.description)}</p> : null}
        {m.curation_policy || m.page ? (
          <p class="jump">
            {m.curation_policy ? <a href="#curation-policy">Curation policy</a> : null} {m.page ? <a href="#about">About this community</a> : null}
          </p>
        ) : null}
        <SearchBox state={state} label="Search this community's records" placeholder="Title, creator, keyword, DOI…" help={<HelpDisclosure />} />
        <RecordResults deps={props.deps} state={state} outcome={outcome} heading="Records" empty="No records in this community match." />
        {m.curation_policy ? (
          <section id="curation-policy" class="card" aria-labelledby="curation-policy-heading">
            <h2 id="curation-policy-heading">Curation policy</h2>
            <Sanitised html={String(m.curation_policy)} />
          </section>
        ) : null}
        {m.page ? (
          <section id="about" class="card" aria-labelledby="about-heading">
            <h2 id="about-heading">About this community</h2>
            <Sanitised html={String(m.page)} />
          </section>
        ) : null}
      </div>
    </Layout>
  );
}

export interface FormPageProps {
  ctx: PageContext;
  types: [string, string][];
  values: CommunityFormValues;
  errors?: FieldError[];
  notice?: { ok: boolean; text: string };
}

export function NewCommunityPage(props: FormPageProps) {
  return (
    <Layout ctx={props.ctx} title="New community">
      <h1>New community</h1>
      {props.errors ? (
        <p class="notice error" role="alert">
          The community was not created: see the messages below.
        </p>
      ) : null}
      <CommunityForm
        action="/communities/new"
        csrf={props.ctx.actor.csrf ?? ""}
        values={props.values}
        errors={props.errors}
        types={props.types}
        mode="new"
        submit="Create community"
      />
    </Layout>
  );
}

export function SettingsPage(props: FormPageProps & { community: Json; hasLogo: boolean; revision: number }) {
  const { community, notice } = props;
  return (
    <Layout ctx={props.ctx} title={`Settings of ${titleOf(community)}`}>
      <div class="community-page">
        <CommunityHead community={community} has={props.hasLogo} heading="Settings" />
        <CommunityTabs community={community} current="settings" members={true} settings={true} requests={true} />
        {notice ? (
          <p class={`notice ${notice.ok ? "ok" : "error"}`} role={notice.ok ? "status" : "alert"}>
            {notice.text}
          </p>
        ) : null}
        <CommunityForm
          action={`/communities/${encodeURIComponent(String(community.slug))}/settings`}
          csrf={props.ctx.actor.csrf ?? ""}
          values={props.values}
          errors={props.errors}
          types={props.types}
          mode="settings"
          revision={props.revision}
          submit="Save settings"
        >
          <p class="muted">
            The identifier (<code>{String(community.slug)}</code>) and the logo are changed through the REST API (<code>/api/communities/{"{id}"}/rename</code>, <code>/logo</code>
            ).
          </p>
        </CommunityForm>
      </div>
    </Layout>
  );
}
