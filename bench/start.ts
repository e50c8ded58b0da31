/**
 * `npm start` wall time: `photon-conformance run` with no `--url` (it starts the embedded
 * reference indexer over its generated dataset, loads and renders the cases, runs the whole
 * interface's suite, prints the report and exits), from spawn to exit, against the same CLI with
 * `--spec 0.50.0`: the bundled 0.50.0 interface, whose cases are the 7 methods of yesterday's
 * run, on the same dataset, start-up and machinery (the honest stand-in for "today's 7-method
 * run": same binary, only the interface judged differs).
 *
 * Runs the compiled CLI (`bin/photon-conformance.js` → dist/, as `npm start` does; build first).
 * `PHOTON_CONFORMANCE_BIN=path.js` runs another compiled entry (one exporting `main(argv)`).
 * The embedded reference reads its trees' Poseidon outputs from the memo the build writes
 * (reference/trees/poseidon-memo.ts), as every `npm start` after `npm ci` does; beside it, in
 * turns: the same run with the memo off (`PHOTON_POSEIDON_MEMO=off`: every tree hashed when first
 * asked), the Poseidon work that saves (`merkleWork`), and `photon-conformance --version` (node
 * start-up and the CLI's imports).
 */
import { writeFileSync } from "node:fs";
import type { Fixtures } from "../conformance/case-format.js";
import { runSuite } from "../conformance/run.js";
import { startReferenceIndexer } from "../reference/serve.js";
import { hash2, hashCount } from "../reference/trees/poseidon.js";
import { loadPoseidonMemo } from "../reference/trees/poseidon-memo.js";
import { figure, main, ROOT, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { runCommand } from "./lib/proc.js";
import { pairedRatio, summary, inTurns } from "./lib/stats.js";
import { cliRunOptions, referenceFixtures } from "./lib/suite-options.js";

const ENTRY = process.env.PHOTON_CONFORMANCE_BIN;

/** The command line of `photon-conformance ARGS`. */
function cli(args: readonly string[]): string[] {
  if (!ENTRY) return [`${ROOT}/bin/photon-conformance.js`, ...args];
  const shim = `${ROOT}/bench/.results/start-shim.mjs`;
  writeFileSync(shim, `const { main } = await import(${JSON.stringify(ENTRY)});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  return [shim, ...args];
}

async function timed(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<{ ms: number; tail: string }> {
  const done = await runCommand(process.execPath, cli(args), 300_000, env);
  if (done.code !== 0) throw new Error(`photon-conformance ${args.join(" ")} exited ${done.code}: ${done.stderr.slice(-2000)}${done.stdout.slice(-2000)}`);
  const lines = done.stdout.trim().split("\n");
  return { ms: done.ms, tail: lines.slice(-3).join(" / ") };
}

/** The modules a whole run's hashing is counted with: the sources (no memo) or the compiled ones (dist/, with the build's memo). */
interface Modules {
  readonly startReferenceIndexer: typeof startReferenceIndexer;
  readonly runSuite: typeof runSuite;
  readonly hashCount: typeof hashCount;
}

/** Poseidon calls the embedded reference hashes during the whole interface's run (in this process, as `run` runs it: each tree built when first asked). */
async function hashesOfWholeRun(modules: Modules, fixtures: Fixtures): Promise<number> {
  const reference = await modules.startReferenceIndexer({ host: "127.0.0.1", port: 0, warmTrees: false });
  const h0 = modules.hashCount();
  try {
    const r = await modules.runSuite(cliRunOptions(reference.url, fixtures));
    if (!r.passed) throw new Error("the whole interface's run did not pass against the embedded reference");
  } finally {
    await reference.close();
  }
  return modules.hashCount() - h0;
}

/**
 * The Merkle work the whole interface needs and the 7 methods do not: the Poseidon calls of the
 * trees the whole run's proof cases read (counted on the sources, which have no memo), then that
 * many two-input calls of the hash library alone, timed: what the memo spares a run.
 */
async function merkleWork(fixtures: Fixtures): Promise<{ hashes: number; ms: number }> {
  const hashes = await hashesOfWholeRun({ startReferenceIndexer, runSuite, hashCount }, fixtures);
  let x = 1n;
  const t0 = performance.now();
  for (let i = 0; i < hashes; i++) x = hash2(x, BigInt(i));
  return { hashes, ms: performance.now() - t0 };
}

/** Poseidon calls the built CLI's embedded reference still hashes in the whole run with its memo (the compiled modules, dist/). */
async function memoMisses(fixtures: Fixtures): Promise<number> {
  const dist = (path: string) => import(`${ROOT}/dist/${path}`);
  const [serve, run, poseidon] = await Promise.all([
    dist("reference/serve.js") as Promise<typeof import("../reference/serve.js")>,
    dist("conformance/run.js") as Promise<typeof import("../conformance/run.js")>,
    dist("reference/trees/poseidon.js") as Promise<typeof import("../reference/trees/poseidon.js")>,
  ]);
  return hashesOfWholeRun({ startReferenceIndexer: serve.startReferenceIndexer, runSuite: run.runSuite, hashCount: poseidon.hashCount }, fixtures);
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const rounds = options.quick ? 1 : 3;
  // The file the compiled reference reads (its DEFAULT_MEMO_FILE, next to the compiled module).
  const built = (await import(`${ROOT}/dist/reference/trees/poseidon-memo.js`)) as typeof import("../reference/trees/poseidon-memo.js");
  const memo = loadPoseidonMemo(built.DEFAULT_MEMO_FILE);
  if (memo === null) throw new Error("dist/reference/trees/poseidon-memo.bin is missing or damaged: run `npm run build` first");
  const whole = ["run"];
  const seven = ["run", "--spec", "0.50.0"];
  const w: number[] = [];
  const s: number[] = [];
  const bare: number[] = [];
  const floor: number[] = [];
  let wholeTail = "";
  let sevenTail = "";
  for (let r = 0; r < rounds; r++) {
    const order = inTurns(r, ["whole", "seven", "bare"] as const);
    for (const which of order) {
      const t = await timed(which === "seven" ? seven : whole, which === "bare" ? { PHOTON_POSEIDON_MEMO: "off" } : undefined);
      if (which === "whole") w.push(t.ms), (wholeTail = t.tail);
      else if (which === "seven") s.push(t.ms), (sevenTail = t.tail);
      else bare.push(t.ms);
    }
    floor.push((await timed(["--version"])).ms);
  }
  const f = summary(floor, 0);
  const fixtures = await referenceFixtures();
  const merkle = await merkleWork(fixtures);
  const misses = await memoMisses(fixtures);
  const seven0 = summary(s, 0).value;
  const lowest = seven0 + merkle.ms;
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  return {
    results: [
      figure({
        id: "start",
        what: "`npm start` wall time (spawn to exit): the whole interface against the embedded reference indexer",
        ours: { label: "photon-conformance run (whole interface)", unit: "ms", ...summary(w, 0) },
        baseline: { label: "photon-conformance run --spec 0.50.0 (the 7 methods of 0.50.0)", unit: "ms", ...summary(s, 0) },
        ratio: pairedRatio(w, s),
        ratioOf: "ours ÷ baseline wall time",
        aim: { op: "<=", value: 2, text: "≤ 2× the 7-method run" },
        notes: [
          `the embedded reference reads its trees' Poseidon outputs from the memo \`npm run build\` writes (dist/reference/trees/poseidon-memo.bin: the default dataset's ${n(memo.size)} tree hashes, each found by the SHA-256 of its exact inputs), as every \`npm start\` after \`npm ci\` does; the same run with the memo off (PHOTON_POSEIDON_MEMO=off, each tree a proof case reads hashed when first asked): ${n(summary(bare, 0).value)} ms, ${pairedRatio(bare, s).toFixed(2)}× the 7-method run (runs: ${bare.map(n).join(", ")})`,
          `what the memo spares: ${n(merkle.hashes)} Poseidon calls to build whole the trees the whole run's proof cases read, ${n(merkle.ms)} ms at the hash library's own speed (@railgun-community/poseidon-hash-wasm, ~80 µs a call; the 7-method run plus that work alone: ${n(lowest)} ms, ${(lowest / seven0).toFixed(2)}×); with the memo the whole run still hashes ${n(misses)} (counted in process on the compiled modules)`,
          `start-up floor: \`photon-conformance --version\` (node start-up and imports) ${f.value} ms`,
          `whole: ${wholeTail}`,
          `0.50.0: ${sevenTail}`,
        ],
      }),
    ],
  };
}

await main(import.meta.url, "start", run);
