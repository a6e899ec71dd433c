// Featured periods of communities: administrators (system_process) set when a public community
// starts being featured and, optionally, when it stops; the featured search (search.ts) shows
// those whose period has begun and not ended. Each change is an administrator's, audited in its
// transaction as `community.feature` (a period set or changed) or `community.unfeature`.
import type { AuditOrigin } from "../audit/model";
import type { AuditService } from "../audit/service";
import type { Actor } from "../core/actor";
import { notFound, validationError, type FieldError } from "../core/errors";
import type { Db } from "../db/port";
import type { Clock } from "../core/time";
import { MISSING } from "../records/metadata/fields";
import { canBeFeatured, checkManageFeatured } from "./policy";
import { presentFeatured } from "./present";
import * as store from "./store";
import type { CommunityRow } from "./store";

/** ISO 8601 date and time; seconds, fraction and zone optional (InvenioRDM's form placeholder is `YYYY-MM-DD hh:mm`). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A start date -> milliseconds (UTC; a time without a zone is taken as UTC, as InvenioRDM stores naive UTC times). Null when invalid. */
export function parseStartDate(value: string): number | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = m[6] ? Number(m[6]) : 0;
  const ms = Number((m[7] ?? "0").padEnd(3, "0").slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const d = new Date(local);
  // Date.UTC rolls 2026-02-30 over to March: a date that does not round-trip does not exist.
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  const zone = m[8]?.toUpperCase();
  if (!zone || zone === "Z") return local;
  const [, sign, hh, mm] = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  if (Number(hh) > 23 || Number(mm) > 59) return null;
  return local - (sign === "-" ? -1 : 1) * (Number(hh) * 60 + Number(mm)) * 60_000;
}

const NOT_A_DATE = "Not a valid datetime: send YYYY-MM-DDTHH:MM:SS.ffffffZ (UTC).";

/**
 * The period of a POST or PUT body: `start_date` (required, as the spec) and Cairn's optional
 * `end_date` (absent or null: featured until another period replaces it), after the start.
 */
function readPeriod(body: unknown): { startDate: number; endDate: number | null } {
  const input = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const errors: FieldError[] = [];
  const date = (field: "start_date" | "end_date") => {
    const value = input[field];
    if (value === undefined || value === null || value === "") return null;
    const ms = typeof value === "string" ? parseStartDate(value) : null;
    if (ms === null) errors.push({ field, messages: [NOT_A_DATE] });
    return ms;
  };
  const startDate = date("start_date");
  const endDate = date("end_date");
  if (startDate === null && !errors.some((e) => e.field === "start_date")) errors.push({ field: "start_date", messages: [MISSING] });
  if (startDate !== null && endDate !== null && endDate <= startDate) errors.push({ field: "end_date", messages: ["Must be after the start date."] });
  if (errors.length) throw validationError(errors);
  return { startDate: startDate!, endDate };
}

export interface FeaturedContext {
  db: Db;
  clock: Clock;
  /** The community by id or slug (administrators see every one); 404 when there is none. */
  loadReadable(actor: Actor, key: string): Promise<CommunityRow>;
  audit: Pick<AuditService, "record">;
}

export function createFeaturedOperations(ctx: FeaturedContext) {
  const { db, clock } = ctx;

  async function loadEntry(community: CommunityRow, rawId: string) {
    const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
    const entry = id === null ? undefined : await store.findFeatured(db, community.id, id);
    if (!entry) throw notFound(`The featured entry ${rawId} of this community does not exist.`);
    return entry;
  }

  /** The audit entry of a change to `community`'s period `period` (as presented), in `tx`. */
  const audited = (tx: Db, actor: Actor, origin: AuditOrigin, action: "feature" | "unfeature", community: CommunityRow, period: ReturnType<typeof presentFeatured>, extra = {}) =>
    ctx.audit.record(
      actor,
      {
        action: `community.${action}`,
        targetType: "community",
        targetId: community.id,
        details: { slug: community.slug, featured: period.id, start_date: period.start_date, end_date: period.end_date ?? null, ...extra },
        ...origin,
      },
      tx,
    );

  return {
    async listFeatured(actor: Actor, key: string) {
      checkManageFeatured(actor);
      const entries = await store.listFeatured(db, (await ctx.loadReadable(actor, key)).id);
      return { hits: { hits: entries.map(presentFeatured), total: entries.length } };
    },

    async createFeatured(actor: Actor, key: string, body: unknown, origin: AuditOrigin) {
      checkManageFeatured(actor);
      const community = await ctx.loadReadable(actor, key);
      const period = readPeriod(body);
      if (!canBeFeatured(community)) throw validationError([{ field: "community_id", messages: ["The community is not public."] }]);
      const now = clock.now();
      return await db.write(async (tx) => {
        const created = presentFeatured(await store.insertFeatured(tx, { communityId: community.id, ...period, created: now, updated: now }));
        await audited(tx, actor, origin, "feature", community, created);
        return created;
      });
    },

    async updateFeatured(actor: Actor, key: string, featuredId: string, body: unknown, origin: AuditOrigin) {
      checkManageFeatured(actor);
      const community = await ctx.loadReadable(actor, key);
      const entry = await loadEntry(community, featuredId);
      const period = readPeriod(body);
      const previous = presentFeatured(entry);
      return await db.write(async (tx) => {
        const updated = presentFeatured((await store.updateFeatured(tx, entry.id, period, clock.now()))!);
        await audited(tx, actor, origin, "feature", community, updated, { previous: { start_date: previous.start_date, end_date: previous.end_date ?? null } });
        return updated;
      });
    },

    async deleteFeatured(actor: Actor, key: string, featuredId: string, origin: AuditOrigin) {
      checkManageFeatured(actor);
      const community = await ctx.loadReadable(actor, key);
      const entry = await loadEntry(community, featuredId);
      await db.write(async (tx) => {
        await store.deleteFeatured(tx, entry.id);
        await audited(tx, actor, origin, "unfeature", community, presentFeatured(entry));
      });
    },
  };
}
