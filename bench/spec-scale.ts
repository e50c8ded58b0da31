/**
 * Spec scale: does the generator, and does `photon-gen diff`, handle a spec the size of the
 * real upstream one (0.50.0: 36 methods, 5,140 lines) in under 3 s each?
 *
 *   npx tsx --conditions=photon-indexer-kit-source bench/spec-scale.ts [--methods 40] [--runs 5]
 *
 * Writes a synthetic spec shaped like upstream's (one path per method, inline JSON-RPC
 * envelopes and params, results built from shared components with `allOf` + `nullable`
 * wrappers, uint64/uint16 formats, enums, paginated methods, 429/500 responses) and a
 * "bumped" version of it (shared components changed, a method removed, one added), then
 * times generate (load, model, every emitter; writing excluded) and diff (load both, model
 * both, compare, classify, render): cold, in a fresh process (module import timed apart
 * from the first run), and warm, the median of further runs in this process, with CPU time
 * beside wall time since these machines are shared. Also times the real upstream 0.50.0
 * spec for comparison. Needs nothing else from bench/; the synthetic spec is
 * test/helpers/synthetic-spec.ts (test/generator/diff/scale.test.ts uses a small one).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { diffSpecs, render } from "../generator/diff/index.js";
import { emitAll } from "../generator/emit/index.js";
import { renderSchemaTypes } from "../generator/emit/types.js";
import { emitValidators } from "../generator/emit/validators.js";
import { generate } from "../generator/generate.js";
import { loadSpec } from "../generator/load.js";
import { buildModel } from "../generator/model.js";
import { syntheticSpec } from "../test/helpers/synthetic-spec.js";

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

const ms = (x: number) => `${Math.round(x)} ms`;

interface Cold {
  /** Process start to modules loaded (node, tsx, ts-morph, typescript, ajv, …): the CLI's startup, the same for any spec. */
  readonly startupMs: number;
  /** The first run in a fresh process: nothing warmed up. */
  readonly firstMs: number;
}

/** Child mode: run once, print startup and run times. Run by `cold()` in a fresh process. */
async function child(what: string, a: string, b: string | undefined): Promise<void> {
  const t1 = performance.now(); // since process start: this file's static imports are loaded
  if (what === "generate") await generate(a);
  else render(await diffSpecs(a, b!), "text");
  const result: Cold = { startupMs: t1, firstMs: performance.now() - t1 };
  process.stdout.write(JSON.stringify(result));
}

function cold(what: "generate" | "diff", a: string, b?: string): Cold {
  const args = ["--import", "tsx", "--conditions=photon-indexer-kit-source", fileURLToPath(import.meta.url), "--child", what, a, ...(b ? [b] : [])];
  const done = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (done.status !== 0) throw new Error(`child ${what} failed: ${done.stderr}`);
  return JSON.parse(done.stdout) as Cold;
}

interface Warm {
  readonly median: number;
  readonly max: number;
  /** Median CPU time (user + system, this process): less sensitive than wall time to other load on the machine. */
  readonly cpu: number;
}

async function warm(runs: number, fn: () => Promise<unknown>): Promise<Warm> {
  await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn();
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  return { median: median(wall), max: Math.max(...wall), cpu: median(cpu) };
}

/** Where generate's time goes: each stage once more, warm. */
async function stages(spec: string): Promise<string> {
  const at = performance.now();
  const model = buildModel(await loadSpec(spec));
  const modelled = performance.now();
  await renderSchemaTypes(model);
  const typed = performance.now();
  emitValidators(model);
  const compiled = performance.now();
  await emitAll(model, { generatorVersion: "bench" });
  const emitted = performance.now();
  const rest = emitted - compiled - (typed - modelled) - (compiled - typed);
  return `load + model ${ms(modelled - at)}; emit ${ms(emitted - compiled)} = openapi-typescript ${ms(typed - modelled)} + ajv ${ms(compiled - typed)} + ts-morph building and formatting ${ms(rest)}`;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const methods = arg("methods", 40);
  const runs = arg("runs", 5);
  const dir = mkdtempSync(join(tmpdir(), "spec-scale-"));
  try {
    const before = join(dir, "synthetic-0.50.0.yaml");
    const after = join(dir, "synthetic-0.51.0.yaml");
    const text = syntheticSpec({ methods });
    writeFileSync(before, text);
    writeFileSync(after, syntheticSpec({ methods, bumped: true }));
    const upstream = join(import.meta.dirname, "..", "test", "fixtures", "upstream-specs", "0.50.0", "api.yaml");
    const load = [loadavg()[0]!];

    // Fresh processes first (nothing warmed up in this one matters to them), then in-process warm runs.
    const rows: [string, Cold, Warm][] = [
      [`generate synthetic (${methods} methods)`, cold("generate", before), await warm(runs, () => generate(before))],
      ["diff synthetic → bumped", cold("diff", before, after), await warm(runs, async () => render(await diffSpecs(before, after), "text"))],
      ["diff synthetic → itself", cold("diff", before, before), await warm(runs, async () => render(await diffSpecs(before, before), "text"))],
      ["generate upstream 0.50.0", cold("generate", upstream), await warm(runs, () => generate(upstream))],
      ["diff upstream 0.50.0 → synthetic", cold("diff", upstream, before), await warm(runs, async () => render(await diffSpecs(upstream, before), "text"))],
    ];
    load.push(loadavg()[0]!);

    const model = buildModel(await loadSpec(before));
    const report = await diffSpecs(before, after);
    console.log(
      `synthetic spec: ${methods} methods, ${Object.keys(model.components).length} component schemas, ${text.split("\n").length} lines, ${Math.round(text.length / 1024)} KiB (upstream 0.50.0: 36 methods, 5,140 lines)`,
    );
    console.log(
      `bumped version: ${report.summary.changes} changes (${report.summary.breakingClients} break clients, ${report.summary.breakingServers} break servers, ${report.summary.compatible} compatible)`,
    );
    console.log(
      `Node ${process.version}, ${availableParallelism()} CPUs, load average ${load.map((l) => l.toFixed(2)).join(" → ")} (wall times grow with other load; cpu does much less)`,
    );
    console.log(
      `cold: a fresh process (startup: node + tsx + modules loaded, then the first run); warm: ${runs} more runs in this process; limit 3000 ms a run\n`,
    );
    const width = Math.max(...rows.map(([n]) => n.length));
    const heads = ["startup", "first", "warm med", "warm max", "warm cpu"];
    console.log(`${"".padEnd(width)}  ${heads.map((h) => h.padStart(9)).join("  ")}`);
    for (const [name, c, w] of rows) {
      const verdict = c.firstMs < 3000 && w.max < 3000 ? "ok" : "OVER 3 s";
      console.log(`${name.padEnd(width)}  ${[c.startupMs, c.firstMs, w.median, w.max, w.cpu].map((x) => ms(x).padStart(9)).join("  ")}  ${verdict}`);
    }
    console.log(`\ngenerate synthetic, by stage (warm): ${await stages(before)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--child");
  if (i > 0) await child(process.argv[i + 1]!, process.argv[i + 2]!, process.argv[i + 3]);
  else await main();
}
