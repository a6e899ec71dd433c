// Wire shapes of the grants and secret-links endpoints: the values their fields take, their limits,
// and the typed inputs validate.ts reads their bodies into.
import type { Permission } from "./directory";

export const LINK_PERMISSIONS = ["view", "preview", "edit"] as const;
export type LinkPermission = (typeof LINK_PERMISSIONS)[number];
export const SUBJECT_TYPES = ["user", "role"] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** Most grants one POST creates, as InvenioRDM allows. */
export const MAX_GRANTS_PER_CALL = 100;
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_DESCRIPTION_LENGTH = 1_000;

/** Fields of a grant body beside its subject and permission; absent ones are undefined. */
export interface GrantFields {
  permission?: Permission;
  message?: string | null;
  expiresAt?: number | null;
  notify?: boolean;
}

export interface GrantInput extends GrantFields {
  subject: { type: SubjectType; id: string };
  permission: Permission;
}

export interface LinkInput {
  permission?: LinkPermission;
  expiresAt?: number | null;
  description?: string;
}
