// `cairn reindex`: rebuilds the records search index from the stored records.
import { systemActor } from "../core/actor";
import { parse, type Command } from "./args";
import { progressBar } from "./progress";
import { withServices } from "./services";

export const reindexCommand: Command = {
  name: "reindex",
  summary: "Rebuild the records search index from the stored records.",
  usage: `cairn reindex
    Rebuilds the full-text and keyword index of every published record, in batched transactions,
    with a progress bar on a terminal. The new index is built beside the old one and swapped in
    at the end in one transaction: searches see the old index until then, and a rebuild that is
    stopped or killed leaves it as it was.`,
  async run(argv) {
    const { values } = parse(argv, {});
    const bar = progressBar("reindexing");
    const started = performance.now();
    const count = await withServices(values, async (s) => {
      const n = await s.records.reindex(systemActor, { onProgress: (done, total) => bar.update(done, total, `${done} records`) });
      await s.stats.refreshPopularity(); // the rebuilt rows start without their view/download counts
      return n;
    });
    bar.done();
    const seconds = (performance.now() - started) / 1000;
    console.log(`reindexed ${count} records in ${seconds.toFixed(1)} s (${Math.round(count / Math.max(seconds, 0.001))}/s)`);
    return 0;
  },
};
