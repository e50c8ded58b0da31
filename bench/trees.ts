/**
 * The reference indexer's Merkle trees (reference/trees/forest.ts), built lazily or incrementally
 * out of `npm start`'s way, measured in four parts (bench/trees/, one file each):
 *
 * - start-up: `startReferenceIndexer()` with the default dataset (seed 1, 20,000 accounts) until
 *   its first answered request (the probe `npm start` sends), in a fresh child process per run,
 *   against the same start-up with `warmTrees: false` (no background tree build). The forest's
 *   constructor, which both build, only indexes the 9 tree records: the difference is everything
 *   the trees cost the start-up. generateDataset alone is reported beside it.
 * - proof latency over loopback from a child-process reference whose trees are built: single
 *   account proofs (V1 on smt1, 26 levels; V2 on the batched trees, 32 levels), 100 proofs at once,
 *   and a V2 validity proof of 8 accounts and 2 new addresses, each against the plain lookup of the
 *   same hashes on the same server (the same HTTP and JSON-RPC work, no tree); and proofs' req/s
 *   (8 accounts, 1,000 distinct sets, memo off) against the lookup's, with a bare node:http floor
 *   serving both methods' precomputed answers in the same rounds.
 * - cold trees: the first proof on an unbuilt tree (smt1 for an account proof, amt1 for a new-address
 *   proof), as a client sees it, with the Poseidon calls the server made for it (absolute).
 * - the whole forest build (9 trees) in process, against the same number of hashes by the hash library alone
 *   (same arities) in a tight loop: the ratio is the trees' own overhead over their hashing.
 *
 * The reference memoises answers to identical calls (serve.ts `memoizeResults`): every measured
 * call here sends params no earlier call of that method sent, so each is computed.
 */
import { main, type BenchOptions, type FigureResult, type Table } from "./lib/figure.js";
import { coldFigures } from "./trees/cold.js";
import { forestFigure } from "./trees/forest.js";
import { pools } from "./trees/inputs.js";
import { proofRpsFigure } from "./trees/proof-rps.js";
import { startupFigures } from "./trees/startup.js";
import { warmFigures } from "./trees/warm.js";

export async function run(options: BenchOptions): Promise<{ results: FigureResult[]; tables: Table[] }> {
  const p = pools();
  // In process first, before any child runs (the children then have the other core to themselves).
  const forest = await forestFigure(p, options);
  const startup = await startupFigures(options);
  const cold = await coldFigures(p, options);
  const warm = await warmFigures(p, options);
  const proofRps = await proofRpsFigure(p, options);
  return { results: [...startup, ...warm, proofRps, ...cold, forest.result], tables: [forest.table] };
}

await main(import.meta.url, "trees", run);
