/**
 * Child process: builds one reference dataset (generateDataset) and the indexed store the
 * reference indexer serves from, then prints one JSON line with the build times and its own
 * peak RSS (`process.resourceUsage().maxRSS`), and exits.
 *   node --import tsx/esm --conditions=photon-indexer-kit-source bench/children/dataset.ts --accounts N [--seed N]
 */
import { generateDataset, ReferenceStore } from "../../reference/index.js";

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const accounts = arg("--accounts", 1_000_000);
const seed = arg("--seed", 1);
const rssBefore = process.resourceUsage().maxRSS * 1024;
const t0 = performance.now();
const data = generateDataset({ seed, accounts });
const t1 = performance.now();
const store = new ReferenceStore(data);
const t2 = performance.now();
const maxRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({
    accounts: data.accounts.length,
    tokenAccounts: data.tokens.length,
    signatures: data.signatures.length,
    slot: store.slot,
    generateMs: t1 - t0,
    indexMs: t2 - t1,
    totalMs: t2 - t0,
    rssAtStartBytes: rssBefore,
    maxRssBytes,
  })}\n`,
);
