// What the pages are handed of the services: exactly the operations they call, each module's own
// service type picked (as each REST module is handed its one service), never the whole app's set.
import type { Deps } from "../core/deps";
import type { AccessRequestsService } from "../access-requests/service";
import type { CommunitiesService } from "../communities/service";
import type { ExportsService } from "../exports/service";
import type { FilesService } from "../files/service";
import type { MembersService } from "../members/service";
import type { RecordsService } from "../records/service";
import type { AccessService } from "../access/service";
import type { OaiService } from "../oai/service";
import type { RequestsService } from "../requests/service";
import type { ModerationService } from "../moderation/service";
import type { SessionsService } from "../sessions/service";
import type { SignInLinks } from "../sessions/sign-in-link";
import type { StatsService } from "../stats/service";
import type { TokensService } from "../tokens/service";
import type { UsersService } from "../users/service";
import type { UserAdminService } from "../users/admin";
import type { AccountsService } from "../accounts/service";
import type { OidcService } from "../accounts/oidc";
import type { SamlService } from "../accounts/saml";
import type { LinkedAccounts } from "../accounts/links";
import type { VocabulariesService } from "../vocabularies/service";
import type { VocabularyImports } from "../vocabularies/imports";
import type { AuditService } from "../audit/service";
import type { HealthService } from "../admin/health";
import type { JobsService } from "../jobs/service";
import type { BackupService } from "../backup/service";
import type { MailService } from "../mail/service";
import type { QuotasService } from "../quotas/service";
import type { GroupsService } from "../groups/service";
import type { RecordRequestsService } from "../record-requests/service";

/**
 * A service's operations as the pages call them: each answers a Promise, since each reaches the
 * database (pages await them all; a synchronous one slipping in would be awaited harmlessly).
 */
type Operations<S, K extends keyof S> = { [P in K]: S[P] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : S[P] };

export interface PageServices {
  /** The clock (dates in forms), the configuration (search limits, DOIs) and the link base; never the database. */
  deps: Pick<Deps, "clock" | "config" | "links">;
  users: Operations<UsersService, "findUserById" | "findUserByEmail" | "readUser" | "searchUsers" | "readAccount" | "updateProfile">;
  tokens: Operations<TokensService, "listTokens" | "createToken" | "revokeToken">;
  /** `throttleAddressOf` reads only the request. */
  sessions: Operations<SessionsService, "signIn" | "signOut" | "changePassword" | "listSignIns"> & Pick<SessionsService, "throttleAddressOf" | "clientOf">;
  /** `registerable` reads only the configuration. */
  accounts: Operations<
    AccountsService,
    "signUp" | "confirmEmail" | "resendConfirmation" | "requestPasswordReset" | "checkResetLink" | "resetPassword" | "requestEmailChange" | "confirmEmailChange"
  > &
    Pick<AccountsService, "registerable">;
  /** `providers` reads only the configuration. */
  oidc: Operations<OidcService, "beginSignIn" | "beginLink" | "finishSignIn" | "checkEmailStep" | "sendEmailStepLink" | "checkEmailStepLink" | "confirmEmailStep"> &
    Pick<OidcService, "providers">;
  /** `providers` reads only the configuration. */
  saml: Operations<SamlService, "beginSignIn" | "beginLink" | "acceptResponse" | "finishSignIn" | "spMetadata"> & Pick<SamlService, "providers">;
  /** `knownTitle` reads only the configuration. */
  linkedAccounts: Operations<LinkedAccounts, "listLinkedAccounts" | "unlinkIdentity" | "checkPendingLink" | "completePendingLink"> & Pick<LinkedAccounts, "knownTitle">;
  /** `check` reads only the link's file. */
  signInLinks: Operations<SignInLinks, "use"> & Pick<SignInLinks, "check">;
  records: Operations<
    RecordsService,
    | "searchRecords"
    | "readRecord"
    | "readDraft"
    | "latestVersion"
    | "listVersions"
    | "listUserRecords"
    | "editRecord"
    | "newVersion"
    | "searchEverything"
    | "deleteRecord"
    | "restoreRecord"
    | "listOwnedRecords"
  >;
  /** The administration's new owner of a record; `listGrants`/`listLinks` fill the record page's Share dialog (and say whether the caller manages the record). */
  access: Operations<AccessService, "updateSettings" | "listGrants" | "listLinks">;
  /** The Share dialog's names of groups given access. */
  groups: Operations<GroupsService, "readGroup">;
  /** The Share dialog's open access requests about a record. */
  recordRequests: Operations<RecordRequestsService, "searchRecordRequests">;
  /** `checkKey` only validates the key. */
  files: Operations<FilesService, "readFile" | "content"> & Pick<FilesService, "checkKey">;
  communities: Operations<
    CommunitiesService,
    | "searchCommunities"
    | "searchFeatured"
    | "searchUserCommunities"
    | "searchRecords"
    | "readCommunity"
    | "permissionsOf"
    | "readLogo"
    | "createCommunity"
    | "updateCommunity"
    | "deleteCommunity"
    | "listFeatured"
    | "createFeatured"
    | "updateFeatured"
    | "deleteFeatured"
    | "mayCreate"
  >;
  /** The administration's OAI-PMH sets. */
  oai: Operations<OaiService, "listSets" | "readSet" | "createSet" | "updateSet" | "deleteSet">;
  members: Operations<MembersService, "searchMembers" | "searchPublicMembers" | "searchInvitations" | "inviteMembers" | "updateMembers" | "removeMembers" | "listUserCommunities">;
  /** `searchRequests`: the administration's accounts awaiting moderation; `countAwaitingAction`: the header's badge; `searchCommunityRequests`: a community's Requests tab. */
  requests: Operations<
    RequestsService,
    "searchUserRequests" | "searchRequests" | "searchCommunityRequests" | "countAwaitingAction" | "readRequest" | "readTimeline" | "createComment" | "runAction" | "guestNameOf"
  >;
  /** The administration's user page: the account's open moderation request (administrators only). */
  moderation: Operations<ModerationService, "pendingOf">;
  accessRequests: Operations<AccessRequestsService, "requestAccess" | "verifyGuest">;
  /** The rest are the administration's Vocabularies screen's (administrators only). */
  vocabularies: Operations<VocabulariesService, "search" | "read" | "listTypes" | "editableType" | "listRetired" | "addEntry" | "editEntry" | "setRetired">;
  /** The Vocabularies screen's imports (administrators only). */
  vocabularyImports: Operations<VocabularyImports, "queueUpload" | "queueRelease" | "listImports">;
  /**
   * `chooseFormat` only negotiates; the format it chooses renders asynchronously (vocabulary
   * titles); `signposting` answers at once when it has no title to read (pages await it).
   */
  exports: Pick<ExportsService, "signposting" | "chooseFormat">;
  /** `recordView` counts (buffered); the rest are the Statistics screen's (administrators only). */
  stats: Pick<StatsService, "recordView"> & Operations<StatsService, "readOverview" | "exportPeriodReport">;
  /** The administration pages' (each operation administrators only). */
  health: Operations<HealthService, "readHealth">;
  mail: Operations<MailService, "searchOutbox" | "readMail" | "resendMail" | "sendTestMail">;
  jobs: Operations<JobsService, "searchJobs" | "readJob" | "retryJob" | "cancelJob" | "listKinds">;
  audit: Operations<AuditService, "record" | "search">;
  userAdmin: Operations<
    UserAdminService,
    "searchAllUsers" | "readManagedUser" | "block" | "restore" | "approve" | "activate" | "deactivate" | "promote" | "demote" | "sendPasswordReset" | "deletePreview" | "delete"
  >;
  backup: Operations<BackupService, "readBackups" | "queueBackup" | "queueVerify">;
  /** Usage beside the quota on the deposit and settings pages; the administration's "Set quota". */
  quotas: Operations<QuotasService, "readRecordUsage" | "readUserUsage" | "setUserQuota">;
}

/**
 * The services the pages use, out of all of them: a page cannot reach another operation
 * (enqueueing jobs, OAI-PMH, queueing mail...) nor the database, even by a cast. Each service is passed whole; the type above narrows
 * it to what pages call.
 */
export const pageServicesOf = (all: PageServices): PageServices => ({
  deps: { clock: all.deps.clock, config: all.deps.config, links: all.deps.links },
  users: all.users,
  tokens: all.tokens,
  sessions: all.sessions,
  accounts: all.accounts,
  oidc: all.oidc,
  saml: all.saml,
  linkedAccounts: all.linkedAccounts,
  signInLinks: all.signInLinks,
  records: all.records,
  access: all.access,
  groups: all.groups,
  recordRequests: all.recordRequests,
  files: all.files,
  communities: all.communities,
  oai: all.oai,
  members: all.members,
  requests: all.requests,
  moderation: all.moderation,
  accessRequests: all.accessRequests,
  vocabularies: all.vocabularies,
  vocabularyImports: all.vocabularyImports,
  exports: all.exports,
  stats: all.stats,
  health: all.health,
  mail: all.mail,
  jobs: all.jobs,
  audit: all.audit,
  userAdmin: all.userAdmin,
  backup: all.backup,
  quotas: all.quotas,
});
