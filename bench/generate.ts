/**
 * Regenerating generated/ from the spec: `photon-gen generate` (the published bin, compiled
 * dist/) writing to a scratch folder, against openapi-typescript alone (its CLI) on the same
 * spec. Both are timed as processes, spawn to exit, alternating, after one warm-up each.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { figure, main, ROOT, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { scratch } from "./lib/http.js";
import { runCommand } from "./lib/proc.js";
import { pairedRatio, summary, inTurns } from "./lib/stats.js";

const SPEC = "spec/photon-indexer.yaml";

/** Newest modification time of the .ts files under a folder. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const runs = options.quick ? 1 : 5;
  const cli = join(ROOT, "dist", "generator", "cli.js");
  if (!existsSync(cli)) throw new Error("dist/ is missing: run `npm run build` first");
  // The bin runs the compiled dist/: say so when the sources have changed since the last build.
  const stale = newestSource(join(ROOT, "generator")) > statSync(cli).mtimeMs;
  const tmp = scratch();
  try {
    const commands = {
      ours: ["bin/photon-gen.js", "generate", "--spec", SPEC, "--out", join(tmp.dir, "generated")],
      baseline: ["node_modules/openapi-typescript/bin/cli.js", SPEC, "-o", join(tmp.dir, "types.ts")],
    };
    const once = async (name: keyof typeof commands) => {
      const done = await runCommand(process.execPath, commands[name]);
      if (done.code !== 0) throw new Error(`${commands[name].join(" ")} exited ${done.code}: ${done.stderr.slice(0, 500)}`);
      return done.ms;
    };
    await once("ours");
    await once("baseline");
    const times: Record<keyof typeof commands, number[]> = { ours: [], baseline: [] };
    for (let r = 0; r < runs; r++) {
      const order = inTurns(r, ["ours", "baseline"] as const);
      for (const name of order) times[name].push(await once(name));
    }
    if (!existsSync(join(tmp.dir, "generated", "validators.ts"))) throw new Error("photon-gen wrote no validators.ts");
    return {
      results: [
        figure({
          id: "generate",
          what: "regenerate generated/ from spec/photon-indexer.yaml (Photon 0.51.2, 38 methods; process, spawn to exit)",
          ours: { label: "photon-gen generate", unit: "ms", ...summary(times.ours, 0) },
          baseline: { label: "openapi-typescript CLI alone", unit: "ms", ...summary(times.baseline, 0) },
          ratio: pairedRatio(times.ours, times.baseline),
          ratioOf: "ours ÷ baseline time",
          aim: { op: "<=", value: 2, text: "≤ 2×" },
          notes: [
            // What bounds it (CPU profile of one run, bench/tools/cpuprofile-top.ts): ours runs openapi-typescript
            // itself (its module loading, TypeScript's included, and its render are the baseline's whole cost), then
            // ajv's standalone compile of every method's params and result (the largest part of our own work), then
            // ts-morph, which writes client, server, method table and method maps: loading it (it bundles a second
            // TypeScript, ~250–300 ms) and one parse per file, each file created from structures in one call (no
            // formatter pass, no edit-by-edit manipulation); then the YAML parse with source positions.
            "bounded by the openapi-typescript run inside ours, ajv's standalone compile of 2 × 38 method schemas, and loading ts-morph's own TypeScript",
            ...(stale ? ["dist/ is older than generator/: this measured the last build; run `npm run build` first"] : []),
          ],
        }),
      ],
    };
  } finally {
    tmp.cleanup();
  }
}

await main(import.meta.url, "generate", run);
