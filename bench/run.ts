/**
 * `npm run bench [-- FIGURE…] [--quick]`: runs every figure file (or the ones named), each in
 * its own Node process so one figure's JIT and heap state cannot colour the next, prints one
 * table, and writes bench/RESULTS.md with the machine, Node version and date.
 *
 * RESULTS.md is only rewritten by a full run (all figures, not --quick): the figures are meant
 * to be read side by side from one run. A partial or quick run writes bench/.results/last-run.md.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { fmtMeasure, fmtRatio, resultRows, RESULT_COLUMNS, ROOT, type FigureOutput, type FigureResult } from "./lib/figure.js";
import { TS_FLAGS } from "./lib/proc.js";
import { formatTable } from "./lib/table.js";

const FIGURES = [
  "validate",
  "parse",
  "base58",
  "client-rps",
  "stateless",
  "server-rps",
  "suite",
  "start",
  "check",
  "generate",
  "dataset",
  "scaling",
  "trees",
  "live",
  "live-trees",
  "watch",
  "diff",
] as const;
type FigureName = (typeof FIGURES)[number];

interface Outcome {
  readonly name: FigureName;
  readonly output: FigureOutput | null;
  readonly error: string | null;
  readonly ms: number;
}

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run bench [-- [${FIGURES.join("|")}]… [--quick]]\n`);
  process.exit(2);
}

function runFigure(name: FigureName, quick: boolean, dir: string): Promise<Outcome> {
  const json = join(dir, `${name}.json`);
  rmSync(json, { force: true });
  const started = performance.now();
  process.stdout.write(`\n▶ ${name}\n`);
  const child = spawn(process.execPath, [...TS_FLAGS, join("bench", `${name}.ts`), "--json", json, ...(quick ? ["--quick"] : [])], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stopChild = () => child.kill("SIGTERM");
  process.once("SIGINT", stopChild);
  process.once("SIGTERM", stopChild);
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      process.off("SIGINT", stopChild);
      process.off("SIGTERM", stopChild);
      const ms = performance.now() - started;
      if (code !== 0) {
        resolve({ name, output: null, error: `exited with ${code ?? signal}`, ms });
        return;
      }
      try {
        resolve({ name, output: JSON.parse(readFileSync(json, "utf8")) as FigureOutput, error: null, ms });
      } catch (err) {
        resolve({ name, output: null, error: `no results (${(err as Error).message})`, ms });
      }
    });
  });
}

/** The commit measured, and the folders with uncommitted changes (others may be editing them). */
function revision(): string {
  try {
    // Not trimmed: porcelain lines start with a two-column status that may begin with a space.
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const head = git("rev-parse", "--short", "HEAD").trim();
    const dirty = [
      ...new Set(
        git("status", "--porcelain", "--", "runtime", "generated", "generator", "reference", "conformance", "spec")
          .split("\n")
          .filter(Boolean)
          .map((l) => l.slice(3).split("/")[0]),
      ),
    ];
    return dirty.length ? `${head} + uncommitted changes in ${dirty.map((d) => `${d}/`).join(", ")}` : head;
  } catch {
    return "unknown (not a git checkout)";
  }
}

function machine(): Record<string, string> {
  const cpu = cpus();
  return {
    Commit: revision(),
    CPU: `${cpu[0]?.model.trim() ?? "unknown"} × ${cpu.length} cores`,
    Memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    OS: `${platform()} ${release()}`,
    Node: process.version,
    "Load average at start (1 min)": loadavg()[0]!.toFixed(2),
  };
}

function markdown(outcomes: readonly Outcome[], info: Record<string, string>, date: string, totalMs: number, quick: boolean): string {
  const results = outcomes.flatMap((o) => o.output?.results ?? []);
  const failed = outcomes.filter((o) => o.error !== null);
  const met = results.filter((r) => r.met === true).length;
  const unmet = results.filter((r) => r.met === false);
  const lines: string[] = [];
  lines.push("# Benchmark results", "");
  lines.push(
    `Written by \`npm run bench\`${quick ? " --quick (smoke run: short and few rounds; do not quote)" : ""} on ${date}, in ${(totalMs / 1000).toFixed(0)} s. Do not edit by hand.`,
    "",
  );
  lines.push(formatTable(["machine", ""], Object.entries(info), "markdown"), "");
  lines.push(
    "Every figure is a ratio against a baseline measured in the same run (absolute times on shared machines are noise). Each run (round) measures ours and the baseline back to back after a warm-up, alternating which goes first; `ours` and `baseline` are medians over the runs, and `ratio` is the median of the per-run ratios (pairing cancels drift between runs). In-process figures use tinybench, HTTP load autocannon over 127.0.0.1; servers run in child processes on the other core.",
    "",
  );
  lines.push(
    `**${met} of ${results.filter((r) => r.aim !== null).length} aims met.**${unmet.length ? ` Not met: ${unmet.map((r) => `\`${r.id}\``).join(", ")}.` : ""}${failed.length ? ` Failed to run: ${failed.map((f) => `\`${f.name}\` (${f.error})`).join(", ")}.` : ""}`,
    "",
  );
  lines.push(formatTable([...RESULT_COLUMNS], resultRows(results), "markdown"), "");
  lines.push("## Details", "");
  for (const o of outcomes) {
    if (o.output === null) {
      lines.push(`### ${o.name}`, "", `Failed: ${o.error}.`, "");
      continue;
    }
    lines.push(`### ${o.name} (bench/${o.name}.ts, ${(o.ms / 1000).toFixed(0)} s)`, "");
    for (const r of o.output.results) lines.push(...detail(r));
    for (const t of o.output.tables) {
      lines.push(`**${t.title}**`, "", formatTable(t.columns, t.rows, "markdown"), "");
      for (const n of t.notes ?? []) lines.push(`- ${n}`);
      if (t.notes?.length) lines.push("");
    }
  }
  lines.push(
    "## Reproduce",
    "",
    "```sh",
    "npm ci && npm run build && npm run bench",
    "npm run bench -- validate parse   # a subset (writes bench/.results/last-run.md)",
    "```",
    "",
  );
  return lines.join("\n");
}

function detail(r: FigureResult): string[] {
  const runs = (m: FigureResult["ours"] | null) => (m?.runs ? ` (runs: ${m.runs.join(", ")})` : "");
  const out = [`- \`${r.id}\`: ${r.what}.`, `  - ours: ${fmtMeasure(r.ours)}, ${r.ours.label}${runs(r.ours)}`];
  if (r.baseline) out.push(`  - baseline: ${fmtMeasure(r.baseline)}, ${r.baseline.label}${runs(r.baseline)}`);
  if (r.ratio !== null)
    out.push(`  - ratio (${r.ratioOf}): ${fmtRatio(r.ratio)}; aim ${r.aim?.text ?? "none"}: ${r.met === null ? "—" : r.met ? "met" : "not met"}`);
  else if (r.aim) out.push(`  - aim ${r.aim.text}: ${r.met ? "met" : "not met"}`);
  for (const n of r.notes ?? []) out.push(`  - ${n}`);
  out.push("");
  return out;
}

async function runAll(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const named = args.filter((a) => !a.startsWith("--"));
  for (const n of named) if (!(FIGURES as readonly string[]).includes(n)) usage(`unknown figure ${JSON.stringify(n)}`);
  const selected = named.length > 0 ? FIGURES.filter((f) => named.includes(f)) : [...FIGURES];
  const dir = join(ROOT, "bench", ".results");
  mkdirSync(dir, { recursive: true });
  const info = machine();
  const date = new Date().toISOString();
  process.stdout.write(
    `photon-indexer-kit benchmarks, ${date}\n${Object.entries(info)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n")}\n`,
  );

  const started = performance.now();
  const outcomes: Outcome[] = [];
  for (const name of selected) outcomes.push(await runFigure(name, quick, dir));
  const totalMs = performance.now() - started;
  info["Load average at end (1 min)"] = loadavg()[0]!.toFixed(2);

  const results = outcomes.flatMap((o) => o.output?.results ?? []);
  process.stdout.write(`\n══ Results (${(totalMs / 1000).toFixed(0)} s) ══\n${formatTable([...RESULT_COLUMNS], resultRows(results), "text")}\n`);
  for (const o of outcomes) if (o.error) process.stdout.write(`✗ ${o.name}: ${o.error}\n`);

  const full = selected.length === FIGURES.length && !quick;
  const text = markdown(outcomes, info, date, totalMs, quick);
  const target = full ? join(ROOT, "bench", "RESULTS.md") : join(dir, "last-run.md");
  writeFileSync(target, text);
  writeFileSync(join(dir, "last-run.json"), JSON.stringify({ date, machine: info, quick, totalMs, outcomes }, null, 2));
  process.stdout.write(`\nwrote ${target.slice(ROOT.length + 1)}${full ? "" : " (a partial or quick run does not rewrite bench/RESULTS.md)"}\n`);
  process.exitCode = outcomes.some((o) => o.error !== null) ? 1 : 0;
}

await runAll();
