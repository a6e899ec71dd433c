// Administration → Health: version, uptime, where the data lives and its sizes, the disk's free
// space, and the configuration warnings (the health service gathers them; this page only shows).
import type { Health } from "../../admin/health";
import type { PageContext } from "../layout";
import { AdminPage, Facts, bytes, when } from "./frame";

export const HEALTH = "/administration/health";

/** 93784000 -> "1 d 2 h 3 min". */
export function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  return [d ? `${d} d` : "", h ? `${h} h` : "", `${m} min`].filter(Boolean).join(" ");
}

function diskText(disk: Health["disk"]): string {
  if (!disk) return "Not known on this system";
  const percent = disk.totalBytes > 0 ? ((disk.freeBytes / disk.totalBytes) * 100).toFixed(1) : "0";
  return `${bytes(disk.freeBytes)} free of ${bytes(disk.totalBytes)} (${percent}%)`;
}

/** "12 of 12 records, 3 of 4 drafts" (what the index holds of what the database holds). */
function indexText(index: Health["searchIndex"]): string {
  const counts = `${index.indexedRecords} of ${index.records} records, ${index.indexedDrafts} of ${index.drafts} drafts`;
  return index.complete ? `Complete: ${counts}` : `Incomplete: ${counts}${index.outdated ? " (built by an older Cairn)" : ""}`;
}

/** "2: 4211 and 4212 on web1, 977 on web2" (the processes serving this database, by machine). */
function processesText(health: Health): string {
  const all = health.servingProcesses;
  if (all.length === 0) return "This one (its job worker has not started)";
  const hosts = [...new Set(all.map((p) => p.host))];
  const list = (pids: number[]) => (pids.length === 1 ? `${pids[0]}` : `${pids.slice(0, -1).join(", ")} and ${pids.at(-1)}`);
  return `${all.length}: ${hosts.map((host) => `${list(all.filter((p) => p.host === host).map((p) => p.pid))} on ${host}`).join(", ")}`;
}

export function HealthPage({ ctx, health, mailOff }: { ctx: PageContext; health: Health; mailOff: boolean }) {
  const facts: [string, string][] = [
    ["Version", health.version],
    ["Commit", health.commit],
    ["Running since", when(health.startedAt)],
    ["Uptime", duration(health.uptimeMs)],
    ["Data directory", health.dataDir],
    ["Database", bytes(health.databaseBytes)],
    ["File store", health.fileStoreBytes === null ? "In S3 (not measured here)" : bytes(health.fileStoreBytes)],
    ["Free disk space", diskText(health.disk)],
    ["Search index", indexText(health.searchIndex)],
    ["Answered by", `Process ${health.process.pid} on ${health.process.host}`],
    ["Serving processes", processesText(health)],
  ];
  return (
    <AdminPage ctx={ctx} title="Health" screen={HEALTH} mailOff={mailOff}>
      <section aria-labelledby="installation">
        <h2 id="installation">Installation</h2>
        <Facts facts={facts} classOf={(term) => (term === "Data directory" || term === "Commit" ? "mono" : undefined)} />
      </section>
      <section aria-labelledby="warnings">
        <h2 id="warnings">Warnings</h2>
        {health.warnings.length === 0 ? (
          <p class="muted">Nothing needs a look.</p>
        ) : (
          <ul class="warnings">
            {health.warnings.map((warning) => (
              <li data-warning={warning.key}>{warning.message}</li>
            ))}
          </ul>
        )}
      </section>
    </AdminPage>
  );
}
