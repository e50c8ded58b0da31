/**
 * Child process: builds a reference dataset and serves it with the reference indexer on a free
 * loopback port. Prints one JSON line when ready (url, build times, peak RSS, the dataset's
 * profile) (with `--await-warm`, once the background tree build has ended), then serves until SIGTERM/SIGINT and closes cleanly.
 * `--no-memo` starts it with `memoize: false` (every answer computed, none reused); `--no-warm` with
 * `warmTrees: false` (no background tree build; trees are built when a request first needs one); `--latency MS`
 * delays every answer as a remote indexer's would (what `photon-conformance serve --latency MS` does);
 * `--live MS` moves the chain one slot every MS ms (`serve --live MS`).
 *   node --import tsx/esm --conditions=photon-indexer-kit-source bench/children/reference.ts [--accounts N] [--seed N] [--no-memo] [--no-warm] [--await-warm] [--latency MS] [--live MS]
 */
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { stringifyJson } from "../../runtime/index.js";

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const accounts = arg("--accounts", 20_000);
const seed = arg("--seed", 1);
const t0 = performance.now();
const data = generateDataset({ seed, accounts });
const t1 = performance.now();
const memoize = !process.argv.includes("--no-memo");
const latencyMs = arg("--latency", 0);
const warmTrees = !process.argv.includes("--no-warm");
const liveMs = arg("--live", 0);
const profile = datasetProfile(data);
const indexer = await startReferenceIndexer({
  host: "127.0.0.1",
  port: 0,
  data,
  memoize,
  warmTrees,
  ...(latencyMs > 0 ? { latencyMs } : {}),
  ...(liveMs > 0 ? { live: { intervalMs: liveMs } } : {}),
});
const t2 = performance.now();
// `--await-warm`: throughput figures measure the steady state, so the background tree build (a start-up transient) ends first.
if (process.argv.includes("--await-warm")) await indexer.warmed;
const warmMs = performance.now() - t2;
const maxRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${stringifyJson({ url: indexer.url, accounts, seed, memoize, latencyMs, generateMs: t1 - t0, indexMs: t2 - t1, warmMs, maxRssBytes, profile })}\n`,
);

const shutdown = () => {
  void indexer.close().then(() => process.exit(0));
};
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
