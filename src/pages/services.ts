// What the pages are handed of the services: exactly the operations they call, each module's own
// service type picked (as each REST module is handed its one service), never the whole app's set.
import type { Deps } from "../core/deps";
import type { AccessRequestsService } from "../access-requests/service";
import type { CommunitiesService } from "../communities/service";
import type { ExportsService } from "../exports/service";
import type { FilesService } from "../files/service";
import type { MembersService } from "../members/service";
import type { RecordsService } from "../records/service";
import type { RequestsService } from "../requests/service";
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
import type { AuditService } from "../audit/service";
import type { HealthService } from "../admin/health";
import type { JobsService } from "../jobs/service";
import type { BackupService } from "../backup/service";
import type { MailService } from "../mail/service";

/**
 * A service's operations as the pages call them: each answers a Promise, since each reaches the
 * database (pages await them all; a synchronous one slipping in would be awaited harmlessly).
 */
type Operations<S, K extends keyof S> = { [P in K]: S[P] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : S[P] };

export interface PageServices {
  /** The clock (dates in forms), the configuration (search limits, DOIs) and the link base; never the database. */
  deps: Pick<Deps, "clock" | "config" | "links">;
  users: Operations<UsersService, "findUserById" | "readUser" | "searchUsers" | "readAccount" | "updateProfile">;
  tokens: Operations<TokensService, "listTokens" | "createToken" | "revokeToken">;
  /** `throttleAddressOf` reads only the request. */
  sessions: Operations<SessionsService, "signIn" | "signOut" | "changePassword"> & Pick<SessionsService, "throttleAddressOf">;
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
  records: Operations<RecordsService, "searchRecords" | "readRecord" | "readDraft" | "latestVersion" | "listVersions" | "listUserRecords" | "editRecord" | "newVersion">;
  /** `checkKey` only validates the key. */
  files: Operations<FilesService, "readFile" | "content"> & Pick<FilesService, "checkKey">;
  communities: Operations<
    CommunitiesService,
    "searchCommunities" | "searchFeatured" | "searchUserCommunities" | "searchRecords" | "readCommunity" | "permissionsOf" | "readLogo" | "createCommunity" | "updateCommunity"
  >;
  members: Operations<MembersService, "searchMembers" | "searchPublicMembers" | "searchInvitations" | "inviteMembers" | "updateMembers" | "removeMembers">;
  requests: Operations<RequestsService, "searchUserRequests" | "readRequest" | "readTimeline" | "createComment" | "runAction">;
  accessRequests: Operations<AccessRequestsService, "requestAccess">;
  vocabularies: Operations<VocabulariesService, "search">;
  /** `chooseFormat` only negotiates; the format it chooses renders asynchronously (vocabulary titles). */
  exports: Operations<ExportsService, "signposting"> & Pick<ExportsService, "chooseFormat">;
  stats: Pick<StatsService, "recordView">;
  /** The administration pages' (each operation administrators only). */
  health: Operations<HealthService, "readHealth">;
  mail: Operations<MailService, "searchOutbox" | "readMail" | "resendMail" | "sendTestMail">;
  jobs: Operations<JobsService, "searchJobs" | "readJob" | "retryJob" | "cancelJob" | "listKinds">;
  audit: Operations<AuditService, "record" | "search">;
  userAdmin: Operations<UserAdminService, "searchAllUsers" | "readManagedUser" | "block" | "restore" | "approve" | "activate" | "deactivate" | "promote" | "demote">;
  backup: Operations<BackupService, "readBackups" | "queueBackup" | "queueVerify">;
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
  files: all.files,
  communities: all.communities,
  members: all.members,
  requests: all.requests,
  accessRequests: all.accessRequests,
  vocabularies: all.vocabularies,
  exports: all.exports,
  stats: all.stats,
  health: all.health,
  mail: all.mail,
  jobs: all.jobs,
  audit: all.audit,
  userAdmin: all.userAdmin,
  backup: all.backup,
});
