// Storage used against a quota, as the deposit page, the profile and the administration show it
// ("2.1 GB of 10.0 GB used"; decimal units, as file sizes are shown everywhere else).
import type { QuotaUsage } from "../quotas/model";
import { formatSize } from "./record/files";

/** "2.1 GB of 10.0 GB used", or "2.1 GB used (no limit)" for a user without a quota. */
export const usageText = (usage: QuotaUsage) =>
  usage.quota_size === 0 ? `${formatSize(usage.used)} used (no limit)` : `${formatSize(usage.used)} of ${formatSize(usage.quota_size)} used`;

/** One quota's line with its meter: `label` says whose it is ("This upload", "All your uploads"). */
export function StorageUsage({ label, usage }: { label: string; usage: QuotaUsage }) {
  return (
    <p class="storage-usage">
      <span>
        {label}: {usageText(usage)}; largest file {formatSize(usage.max_file_size)}.
      </span>
      {usage.quota_size > 0 ? <meter min={0} max={usage.quota_size} value={Math.min(usage.used, usage.quota_size)} aria-label={`${label}: storage used`} /> : null}
    </p>
  );
}
