/**
 * Child process of bench/trees.ts (the reference indexer's Merkle trees), in three modes:
 *
 * - `startup [--no-warm]`: one shot. `startReferenceIndexer()` with the default dataset (what
 *   `npm start` starts: conformance/session.ts openSession), then the first request `npm start`
 *   sends (ensureReachable, conformance/session.ts: the first method of the table without params),
 *   answered over loopback. Prints one JSON line (`Startup`) and exits. `--no-warm` starts it
 *   with `warmTrees: false`: the same start-up without the background tree build.
 * - `generate`: one shot. generateDataset() alone (the default dataset), timed the same way.
 * - `serve [--no-warm] [--no-memo] [--prebuild] [--stats FILE]`: a server on a free loopback port. `--no-memo`
 *   computes every answer (no result memo). `--prebuild`
 *   builds every tree (each tree's root) before it reports ready, so proofs find their tree built;
 *   `--no-warm` leaves every tree unbuilt until a proof needs it. Prints `{"url", …}` when ready;
 *   on SIGTERM/SIGINT writes `{ hashes, built }` (Poseidon calls in this process, trees started)
 *   to FILE, closes and exits.
 *
 *   node --import tsx/esm --conditions=photon-indexer-kit-source bench/children/trees.ts MODE [flags]
 */
import { writeFileSync } from "node:fs";
import { request } from "undici";
import { methods } from "../../generated/methods.js";
import { generateDataset } from "../../reference/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { hashCount } from "../../reference/trees/poseidon.js";
import { stringifyJson } from "../../runtime/index.js";

export interface Startup {
  /** startReferenceIndexer() called to its promise resolved (dataset generated, store indexed, listening), ms. */
  readonly listenMs: number;
  /** Listening to the first answer received, ms. */
  readonly answerMs: number;
  /** startReferenceIndexer() called to the first answer received, ms. */
  readonly totalMs: number;
  /** Poseidon calls made by then. */
  readonly hashes: number;
  /** Trees whose build had started by then. */
  readonly built: readonly string[];
  readonly method: string;
}

export interface Generated {
  readonly generateMs: number;
  readonly accounts: number;
}

export interface Serving {
  readonly url: string;
  /** --prebuild: time to build every tree, ms, and the Poseidon calls it took (0 without --prebuild). */
  readonly prebuildMs: number;
  readonly prebuildHashes: number;
}

export interface Stats {
  readonly hashes: number;
  readonly built: readonly string[];
}

const flag = (name: string) => process.argv.includes(name);
const value = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const mode = process.argv[2];

/** The probe `npm start` sends before running cases (conformance/session.ts ensureReachable): the first method without params. */
function probeMethod(): string {
  const method = Object.values(methods).find((m) => !m.hasParams)?.name;
  if (method === undefined) throw new Error("the method table has no method without params");
  return method;
}

if (mode === "startup") {
  const method = probeMethod();
  const body = stringifyJson({ jsonrpc: "2.0", id: 1, method });
  const t0 = performance.now();
  const indexer = await startReferenceIndexer({ host: "127.0.0.1", port: 0, warmTrees: !flag("--no-warm") });
  const t1 = performance.now();
  const res = await request(indexer.url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await res.body.text();
  const t2 = performance.now();
  const out: Startup = {
    listenMs: t1 - t0,
    answerMs: t2 - t1,
    totalMs: t2 - t0,
    hashes: hashCount(),
    built: indexer.forest.built(),
    method,
  };
  await indexer.close();
  if (res.statusCode !== 200 || !text.includes('"result"')) throw new Error(`${method}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
} else if (mode === "generate") {
  const t0 = performance.now();
  const data = generateDataset();
  const out: Generated = { generateMs: performance.now() - t0, accounts: data.accounts.length };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
} else if (mode === "serve") {
  const indexer = await startReferenceIndexer({ host: "127.0.0.1", port: 0, warmTrees: !flag("--no-warm"), memoize: !flag("--no-memo") });
  let prebuildMs = 0;
  let prebuildHashes = 0;
  if (flag("--prebuild")) {
    const h0 = hashCount();
    const t0 = performance.now();
    // A tree's root finishes its build (the background warm-up, if any, then finds it built).
    for (const tree of indexer.store.dataset.trees) indexer.forest.root(tree.tree);
    prebuildMs = performance.now() - t0;
    prebuildHashes = hashCount() - h0;
  }
  const ready: Serving = { url: indexer.url, prebuildMs, prebuildHashes };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  const stats = value("--stats");
  const shutdown = () => {
    if (stats !== undefined) writeFileSync(stats, JSON.stringify({ hashes: hashCount(), built: indexer.forest.built() } satisfies Stats));
    void indexer.close().then(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
} else {
  throw new Error(`mode must be startup, generate or serve, got ${JSON.stringify(mode)}`);
}
