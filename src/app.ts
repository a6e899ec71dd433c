// createApp: opens the data directory, wires every service and mounts every module's routes.
// Used alike by `serve`, the CLI commands and the tests.
import { mkdirSync } from "node:fs";
import { Elysia } from "elysia";
import type { Config } from "./config";
import type { Deps } from "./core/deps";
import { systemActor } from "./core/actor";
import { createAddressResolver } from "./core/client-address";
import { actorContext, createHttp } from "./core/http";
import { httpPolicy } from "./core/http-policy";
import { createSharedRateCounts } from "./rate-limits/store";
import { newUuid } from "./core/ids";
import { createLinks } from "./core/links";
import { systemClock, type Clock } from "./core/time";
import { openConfiguredDatabase } from "./db/open";
import { DatabaseUnreachable } from "./db/port";
import { docsRoutes } from "./docs/routes";
import { groupsRoutes } from "./groups/routes";
import { iiifRoutes } from "./iiif/routes";
import { createIiifService } from "./iiif/service";
import { recordRequestsRoutes } from "./record-requests/routes";
import { createRecordRequestsService } from "./record-requests/service";
import { createAuditService } from "./audit/service";
import { createHealthService } from "./admin/health";
import { createAdminApi } from "./admin/api";
import { adminRoutes } from "./admin/routes";
import { createGroupsService } from "./groups/service";
import { communitiesRoutes, COMMUNITY_CONTENT_ROUTES } from "./communities/routes";
import { createCommunityDirectory } from "./communities/directory";
import { createCommunitiesService } from "./communities/service";
import { defineMailJobs, MAIL_SEND_JOB } from "./mail/jobs";
import { createMailService } from "./mail/service";
import { membersRoutes } from "./members/routes";
import { createMembersService } from "./members/service";
import { createInvitationType, createMembershipRequestType } from "./members/request-types";
import { createMembershipWriter } from "./members/writer";
import { userDirectoryOf } from "./requests/context";
import { defineRequestJobs } from "./requests/jobs";
import { requestsRoutes } from "./requests/routes";
import { createRequestDirectory } from "./requests/directory";
import { createAccessDirectory } from "./access/directory";
import { accessRoutes } from "./access/routes";
import { createAccessService } from "./access/service";
import { createAccessWriter } from "./access/writer";
import { defineAccessRequestJobs } from "./access-requests/jobs";
import { defineSessionJobs } from "./sessions/jobs";
import { createSessionsService } from "./sessions/service";
import { createSignInLinks } from "./sessions/sign-in-link";
import { createGuestAccessRequestType, createUserAccessRequestType } from "./access-requests/request-types";
import { accessRequestsRoutes } from "./access-requests/routes";
import { createAccessRequestsService } from "./access-requests/service";
import { createInclusionType, createSubmissionType } from "./curation/request-types";
import { curationRoutes } from "./curation/routes";
import { createCurationService } from "./curation/service";
import { createRequestsService } from "./requests/service";
import { defineMaintenanceJobs } from "./jobs/maintenance";
import { createJobRegistry } from "./jobs/registry";
import { defineVocabularyJobs } from "./vocabularies/import-job";
import { createVocabularyImports } from "./vocabularies/imports";
import { createJobsService } from "./jobs/service";
import { createWorker } from "./jobs/worker";
import { filesRoutes, FILE_CONTENT_ROUTES } from "./files/routes";
import { defineFileJobs } from "./files/jobs";
import { defineBackupJobs } from "./backup/jobs";
import { createBackupService } from "./backup/service";
import { createLifecycleHooks } from "./files/lifecycle";
import { createFilesService } from "./files/service";
import { createQuotaLimits } from "./quotas/limits";
import { quotasRoutes } from "./quotas/routes";
import { createQuotasService } from "./quotas/service";
import { openFileStore } from "./storage/file-store";
import { exportsRoutes } from "./exports/routes";
import { createExportsService } from "./exports/service";
import { doiResolverUrl } from "./pids/doi";
import { readRecordRoute, recordsRoutes } from "./records/routes";
import { defineRecordJobs } from "./records/jobs";
import { createRecordsService } from "./records/service";
import { defineStatsJobs } from "./stats/jobs";
import { statsRoutes } from "./stats/routes";
import { createStatsService } from "./stats/service";
import { createStatsTotals } from "./stats/totals";
import { createTokensService } from "./tokens/service";
import { defineAccountJobs } from "./accounts/jobs";
import { createAccountsService } from "./accounts/service";
import { createOidcService } from "./accounts/oidc";
import { createSamlService } from "./accounts/saml";
import { createLinkedAccounts } from "./accounts/links";
import { createLdapService } from "./accounts/ldap";
import { usersRoutes } from "./users/routes";
import { createUserAdmin } from "./users/admin";
import { createModerationDirectory } from "./moderation/directory";
import { moderatorEmails, requestOrigin } from "./moderation/model";
import { createUserModerationType } from "./moderation/request-types";
import { createModerationService } from "./moderation/service";
import { createUsersService } from "./users/service";
import { oaiHarvestRoutes, oaiSetsRoutes, OAI_FORM_ROUTES } from "./oai/routes";
import { createOaiService } from "./oai/service";
import { createTombstoneWriter } from "./oai/writer";
import { VERSION } from "./version";
import { pagesRoutes, PAGE_FORM_ROUTES } from "./pages/routes";
import { htmlErrorPages } from "./pages/error-pages";
import { ADMIN_UPLOAD_ROUTES } from "./pages/admin/routes";
import { pageServicesOf } from "./pages/services";
import { themeOf } from "./pages/theme";
import { fixturesVersion, shippedVocabularies } from "./vocabularies/fixtures";
import { vocabulariesRoutes, VOCABULARY_IMPORT_ROUTES } from "./vocabularies/routes";
import { createVocabulariesService } from "./vocabularies/service";

export interface AppOptions {
  config: Config;
  clock?: Clock;
  log?: (message: string) => void;
}

export function createServices(options: AppOptions) {
  const { config, clock = systemClock, log = (m: string) => console.error(m) } = options;
  const startedAt = clock.now();
  mkdirSync(config.DATA_DIR, { recursive: true });
  // Migrated as it opens (SQLite) or before its first statement (PostgreSQL): createServices stays
  // synchronous (every test calls it so).
  const db = openConfiguredDatabase(config, clock.now());
  const deps: Deps = { db, clock, config, links: createLinks(config.BASE_URL) };
  // The accounts and the audit log first: every area that acts for an administrator writes its entry in its own transaction.
  const users = createUsersService(deps);
  const audit = createAuditService({ ...deps, emailOf: async (id) => (await users.findUserById(id))?.email ?? null });
  const registry = createJobRegistry();
  defineMaintenanceJobs(registry, { db, clock, retentionDays: config.JOBS_RETENTION_DAYS });
  const runner = { db, clock, registry, log };
  const vocabularies = createVocabulariesService({ ...deps, audit });
  // One write transaction, queued now: every later statement waits behind it at the port's gate,
  // so nothing reads the vocabularies before they are loaded. `serve` awaits it before listening.
  const ready: Promise<void> = vocabularies.loadFixtures(shippedVocabularies, fixturesVersion()).then(() => undefined);
  ready.catch((error: unknown) => {
    // An unreachable database is said once, by whoever awaits `ready` (serve, the CLI).
    if (!(error instanceof DatabaseUnreachable)) log(`[cairn] loading the shipped vocabularies failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  const jobs = createJobsService({ ...runner, audit });
  defineVocabularyJobs(registry, { vocabularies, config });
  const vocabularyImports = createVocabularyImports({ db, config, jobs, audit });
  const enqueue = async (name: string, payload: unknown) => {
    if (registry.get(name)) await jobs.enqueue(name, payload);
  };
  // Built in dependency order, each from what is built before it. Files, records, statistics and
  // OAI-PMH answer one another through small pieces built first: the file hooks records move
  // files with, the counts records show, the tombstones records report visibility changes to.
  const fileStore = openFileStore(config);
  const fileHooks = createLifecycleHooks({ db, clock, files: fileStore, log, linkBase: config.FILES_LINKS_ABSOLUTE ? deps.links.baseUrl : "" });
  const statsTotals = createStatsTotals(db);
  const tombstones = createTombstoneWriter(db);
  // Communities, the requests engine and members answer each other and records show communities:
  // what each needs of another is built from that module's store first.
  const communityDirectory = createCommunityDirectory(db, deps.links);
  const requestDirectory = createRequestDirectory(db);
  const moderationDirectory = createModerationDirectory(requestDirectory);
  const accessDirectory = createAccessDirectory(db, clock);
  const records = createRecordsService({
    ...deps,
    lookup: vocabularies.lookup,
    enqueue,
    audit,
    // Built below: asked only when a record is deleted, long after start.
    citationText: (record) => exportsService.render("citation", record),
    files: fileHooks,
    onVisibilityChange: tombstones.noteVisibilityChange,
    recordStats: config.STATS_ENABLED ? statsTotals.recordStats : undefined,
    communityEntries: communityDirectory.readableEntries,
    communityTitles: communityDirectory.readableTitles,
    communityRoles: communityDirectory.rolesOf,
    requests: requestDirectory,
    access: accessDirectory,
    // Built below (it makes requests): asked only when a draft is published.
    moderation: { hold: (actor, draft) => moderation.hold(actor, draft), isHeld: moderationDirectory.isHeld },
    log,
  });
  const stats = createStatsService({
    ...deps,
    records,
    totals: statsTotals,
    onPopularity: records.updatePopularity,
    log,
    // Files are built below (their downloads are counted by stats); asked only when the Statistics screen is read.
    growth: {
      publishedPerDay: records.publishedPerDay,
      storedBytes: { before: (fromMs) => files.storedBytes.before(fromMs), perDay: (fromMs, toMs) => files.storedBytes.perDay(fromMs, toMs) },
    },
  });
  const quotaLimits = createQuotaLimits(deps);
  const files = createFilesService({
    ...deps,
    quotas: quotaLimits,
    files: fileStore,
    hooks: fileHooks,
    owners: records.fileOwners,
    enqueue,
    // Every content response that sends bytes of a published record counts as a download.
    onDownload: stats.recordDownload,
    log,
  });
  defineStatsJobs(registry, stats);
  defineFileJobs(registry, { files, config, log });
  const backup = createBackupService({ config, clock, jobs, db, audit });
  defineBackupJobs(registry, { backup, config });
  defineRecordJobs(registry, { records, config, lookup: vocabularies.lookup, log });
  const exportsService = createExportsService({
    readRecord: records.readRecord,
    links: deps.links,
    siteName: config.THEME_SITENAME,
    lookup: vocabularies.lookup,
    doiUrl: (doi) => doiResolverUrl(doi, config.DATACITE_TEST_MODE),
  });
  const adminEmails = () => users.adminEmails(systemActor);
  const mail = createMailService({ ...deps, log, audit });
  defineMailJobs(registry, { mail });
  // Each module's request types, built from the writers they need (each from its module's store,
  // so the engine exists before the services that create requests); the engine knows none of them.
  const membershipWriter = createMembershipWriter(db);
  const accessWriter = createAccessWriter(db, accessDirectory.tokens);
  const requestTypes = [
    createInvitationType({ members: membershipWriter }),
    createMembershipRequestType({ members: membershipWriter }),
    createSubmissionType({ records: records.curation.forRequests }),
    createInclusionType({ records: records.curation.forRequests }),
    createUserAccessRequestType({ access: accessWriter }),
    createGuestAccessRequestType({ access: accessWriter }),
    // Accepting and declining approve and block the account through userAdmin (built below), audited there.
    createUserModerationType({
      findUser: users.findUserById,
      approve: (actor, id) => userAdmin.approve(actor, id, requestOrigin(actor)),
      block: (actor, id) => userAdmin.block(actor, id, requestOrigin(actor)),
      publishHeld: records.curation.forRequests.publishHeld,
    }),
  ];
  const requests = createRequestsService({
    ...deps,
    communities: communityDirectory,
    users: { ...userDirectoryOf(users.findUserById), groupEmails: moderatorEmails(adminEmails) },
    queueMail: mail.queueMail,
    types: requestTypes,
    log,
  });
  defineRequestJobs(registry, { requests });
  defineAccessRequestJobs(registry, { db, clock });
  const tokens = createTokensService(deps);
  const sessions = createSessionsService({ ...deps, groupIdsOf: tokens.groupIdsOf });
  defineSessionJobs(registry, { sessions });
  const quotas = createQuotasService({
    ...deps,
    audit,
    limits: quotaLimits,
    userExists: async (id) => (await users.findUserById(id)) !== null,
    managesDraft: (actor, id) =>
      records.fileOwners.draftTarget(actor, id).then(
        () => true,
        () => false,
      ),
  });
  const moderation = createModerationService({ ...deps, requests, findUser: users.findUserById, deleteOwnedRecords: records.deleteOwnedRecords });
  const userAdmin = createUserAdmin({
    ...deps,
    audit,
    endSessions: sessions.endUserSessions,
    closeRequestsOf: requests.closeUserRequests,
    moderation: { approved: moderation.approved, blocked: moderation.blocked },
    // Bound late: accounts and members are built below (they are only called once a request comes).
    owned: {
      countOwned: records.ownerRemoval.countOwned,
      handOver: records.ownerRemoval.handOver,
      communitiesOf: (actor, userId, limit) => members.listUserCommunities(actor, userId, limit),
    },
    issuePasswordReset: (tx, user, afterCommit) => accounts.issuePasswordReset(tx, user, afterCommit),
  });
  // Account mail (links people wait for) goes out at once, not at the outbox's next minute.
  const deliverSoon = config.MAIL_SERVER ? () => enqueue(MAIL_SEND_JOB, {}) : async () => undefined;
  const accounts = createAccountsService({
    ...deps,
    users,
    sessions,
    queueMail: mail.queueMail,
    deliverSoon,
  });
  const groups = createGroupsService(deps);
  const linkedAccounts = createLinkedAccounts({ ...deps, users });
  const oidc = createOidcService({
    ...deps,
    users,
    sessions,
    groups,
    linkedAccounts,
    queueMail: mail.queueMail,
    deliverSoon,
  });
  // The directory is the password form's second chance: sessions calls it (late-bound, as accounts/ depends on sessions/).
  const ldap = createLdapService({ ...deps, users, sessions, groups, queueMail: mail.queueMail, deliverSoon });
  if (ldap.enabled) sessions.useDirectory(ldap.signIn);
  const saml = createSamlService({ ...deps, users, sessions, groups, linkedAccounts, queueMail: mail.queueMail, deliverSoon, log });
  defineAccountJobs(registry, { accounts, oidc, saml });
  const communities = createCommunitiesService({
    ...deps,
    audit,
    lookup: vocabularies.lookup,
    files: fileStore,
    searchRecords: (actor, communityId, query) => records.searchCommunityRecords(actor, communityId, query),
    onDelete: [requests.closeCommunityRequests, records.curation.leaveCommunity],
  });
  const curation = createCurationService({ curation: records.curation, requests, communities: communityDirectory, searchCommunities: communities.searchAmong });
  const access = createAccessService({ ...deps, audit, sharing: records.sharing, tokens: accessDirectory.tokens, queueMail: mail.queueMail });
  const accessRequests = createAccessRequestsService({
    ...deps,
    records,
    requests,
    users: userDirectoryOf(users.findUserById),
    access: accessDirectory,
    queueMail: mail.queueMail,
  });
  const members = createMembersService({ ...deps, communities: communityDirectory, requests });
  const iiif = createIiifService({ links: deps.links, records, files: fileStore, log });
  const recordRequests = createRecordRequestsService({ records: records.curation, requests });
  const oai = createOaiService({ ...deps, audit, records, exportContext: exportsService.context(), adminEmails, communitySets: communities.oaiSets });
  const worker = createWorker(runner, { concurrency: config.JOBS_CONCURRENCY, pollMs: config.JOBS_POLL_INTERVAL_MS });
  return {
    deps,
    log,
    /** Resolves once the shipped vocabularies are loaded (rejects if that failed, which is logged too). */
    ready,
    users,
    /** Administrators managing accounts: the list of all, block, restore, approve, (de)activate, promote, demote. */
    userAdmin,
    /** Storage quotas: set by administrators, read with their usage by owners. */
    quotas,
    /** Moderation of new accounts: the open user-moderation request of an account. */
    moderation,
    audit,
    tokens,
    sessions,
    accounts,
    oidc,
    saml,
    linkedAccounts,
    signInLinks: createSignInLinks({ dataDir: config.DATA_DIR, clock, db, sessions }),
    groups,
    records,
    files,
    communities,
    members,
    requests,
    curation,
    iiif,
    recordRequests,
    access,
    accessRequests,
    mail,
    exports: exportsService,
    oai,
    vocabularies,
    /** Vocabulary imports as jobs: an uploaded dump, or the publisher's newest release. */
    vocabularyImports,
    jobs,
    backup,
    health: createHealthService({
      config,
      clock,
      startedAt,
      adminEmails,
      checkIndex: records.checkIndex,
      databaseBytes: () => db.sizeBytes(),
      servingProcesses: () => worker.listInstances(),
    }),
    worker,
    stats,
    /** Resolves once the fixture load and buffered writes are done and the database is closed. */
    close: async () => {
      await ready.catch(() => undefined); // its failure was logged; a load cut off by close would be lost
      await stats.close(); // buffered view/download events are written first
      records.close(); // the search reader workers
      db.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;

export function createApp(options: AppOptions) {
  const services = createServices(options);
  const { config } = services.deps;
  const authenticate = { token: services.tokens.authenticate, session: services.sessions.resolve };
  const http = actorContext(authenticate, newUuid());
  // The theme is read once (its logo and stylesheet become hashed assets): every page and error page shows it.
  // Who the client is (APP_TRUSTED_PROXIES decides when a forwarded address is believed), for the
  // audit log's origins and the statistics' visitors, as the rate limits resolve it (core/http-policy.ts).
  const addressOf = createAddressResolver(config.APP_TRUSTED_PROXIES);
  const pages = {
    services: pageServicesOf(services),
    siteName: config.THEME_SITENAME,
    https: config.BASE_URL.startsWith("https:"),
    theme: themeOf(config),
    addressOf,
  };
  const web = createHttp(
    {
      allowedHosts: config.APP_ALLOWED_HOSTS,
      maxContentLength: config.MAX_CONTENT_LENGTH,
      logRequests: config.LOG_REQUESTS,
      log: services.log,
      authenticate,
      streamedBodyRoutes: new Set<string>([...FILE_CONTENT_ROUTES, ...COMMUNITY_CONTENT_ROUTES, ...ADMIN_UPLOAD_ROUTES, ...VOCABULARY_IMPORT_ROUTES]),
      formBodyRoutes: new Set<string>([...OAI_FORM_ROUTES, ...PAGE_FORM_ROUTES]),
      policy: httpPolicy(config, services.deps.clock, { sharedCounts: createSharedRateCounts(services.deps.db), log: services.log }),
      htmlError: htmlErrorPages(pages),
    },
    () => app.routes,
    () => (request) => app.handle(request),
  );
  const readRecord = readRecordRoute(services.records, services.exports, services.stats.recordView, addressOf);
  const app: Elysia = new Elysia()
    .use(web.hooks)
    .get("/ping", () => new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8" } }), { detail: { hide: true } })
    .use(docsRoutes(VERSION))
    .use(vocabulariesRoutes(http, services.vocabularies, services.vocabularyImports, addressOf))
    .use(recordsRoutes(http, services.records, readRecord, addressOf))
    .use(exportsRoutes(http, services.exports))
    .use(filesRoutes(http, services.files, addressOf))
    .use(groupsRoutes(http, services.groups))
    .use(communitiesRoutes(http, services.communities, addressOf))
    .use(membersRoutes(http, services.members))
    .use(requestsRoutes(http, services.requests))
    .use(curationRoutes(http, services.curation))
    .use(recordRequestsRoutes(http, services.recordRequests))
    .use(iiifRoutes(http, services.iiif))
    .use(accessRoutes(http, services.access, addressOf))
    .use(accessRequestsRoutes(http, services.accessRequests))
    .use(usersRoutes(http, services.users, services.userAdmin, addressOf))
    .use(quotasRoutes(http, services.quotas, addressOf))
    .use(adminRoutes(http, createAdminApi({ ...services, links: services.deps.links }), addressOf))
    .use(statsRoutes(http, services.stats))
    .use(oaiSetsRoutes(http, services.oai, addressOf))
    .use(oaiHarvestRoutes(services.oai))
    .use(pagesRoutes(http, pages)) as unknown as Elysia;
  /** Routes Bun's router hands straight to their handler (core/http.ts `direct`), by Bun route pattern. */
  const directRoutes = { "/api/records/:id": web.direct(readRecord, (request) => app.fetch(request)) };
  return { app, services, directRoutes };
}

export type App = ReturnType<typeof createApp>;
