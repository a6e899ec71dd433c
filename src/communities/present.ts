// Community rows -> the API's JSON (the spec's "Community" table): links, `+00:00` timestamps,
// featured entries and the logo's file entry.
import type { Links } from "../core/links";
import { formatIsoTime } from "../core/time";
import type { CommunityRow, FeaturedRow } from "./store";

export interface PresentOptions {
  /** The single-community read adds the `featured` link (the spec lists it there only). */
  single?: boolean;
}

export function presentCommunity(row: CommunityRow, links: Links, options: PresentOptions = {}) {
  const api = (path: string) => links.api(`/communities/${row.id}${path}`);
  return {
    id: row.id,
    slug: row.slug,
    created: formatIsoTime(row.created),
    updated: formatIsoTime(row.updated),
    revision_id: row.revisionId,
    // record_policy is the spec's name, record_submission_policy InvenioRDM's current one for the same value: both are answered.
    access: {
      visibility: row.visibility,
      members_visibility: row.membersVisibility,
      member_policy: row.memberPolicy,
      record_policy: row.recordPolicy,
      record_submission_policy: row.recordPolicy,
      review_policy: row.reviewPolicy,
    },
    metadata: row.metadata,
    links: {
      self: api(""),
      // Pages address a community by its slug, as InvenioRDM's UI routes do.
      self_html: links.html(`/communities/${row.slug}`),
      settings_html: links.html(`/communities/${row.slug}/settings`),
      logo: api("/logo"),
      rename: api("/rename"),
      members: api("/members"),
      public_members: api("/members/public"),
      invitations: api("/invitations"),
      requests: api("/requests"),
      records: api("/records"),
      ...(options.single ? { featured: api("/featured") } : {}),
    },
  };
}

export type CommunityJson = ReturnType<typeof presentCommunity>;

/** `{id, start_date}` as the spec, and `end_date` when the period has one (Cairn's extension). */
export const presentFeatured = (row: FeaturedRow) => ({
  id: row.id,
  start_date: formatIsoTime(row.startDate),
  ...(row.endDate === null ? {} : { end_date: formatIsoTime(row.endDate) }),
});

/** The logo as a file entry (invenio-records-resources' file result); its links are path-only, as file links are. */
export function presentLogo(row: CommunityRow, md5: string) {
  const path = `/api/communities/${row.id}/logo`;
  return {
    key: "logo",
    created: formatIsoTime(row.updated),
    updated: formatIsoTime(row.updated),
    status: "completed",
    metadata: null,
    checksum: `md5:${md5}`,
    mimetype: row.logoMimetype,
    size: row.logoSize,
    file_id: row.logoObjectId,
    version_id: row.logoObjectId,
    bucket_id: row.id,
    storage_class: "L",
    links: { self: path, content: path },
  };
}
