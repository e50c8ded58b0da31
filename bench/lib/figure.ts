/**
 * What every benchmark file produces: figures (ours against a baseline measured in the same
 * run, as a ratio, with the aim) and optional tables (how cost grows). A figure file
 * exports `run(options)`; executed directly it prints its results and, with `--json FILE`,
 * writes them for the runner (bench/run.ts).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { stopAll } from "./proc.js";
import { formatTable } from "./table.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

export interface BenchOptions {
  /** Shorter runs (fewer rounds, shorter durations): a smoke test of the scripts, not figures to quote. */
  readonly quick: boolean;
}

export interface Measure {
  /** The value in `unit` (medians over the runs). */
  readonly value: number;
  readonly unit: string;
  /** What was measured, e.g. `generated validator`. */
  readonly label: string;
  /** The per-run values the median was taken over. */
  readonly runs?: readonly number[];
}

export interface Aim {
  /** How `ratio` (or `ours.value` when there is no baseline) must compare with `value`. */
  readonly op: ">=" | "<=" | "<";
  readonly value: number;
  /** As the issue states it, e.g. `≥ 5× zod throughput`. */
  readonly text: string;
}

export interface FigureResult {
  /** Stable id, e.g. `validate.zod`. */
  readonly id: string;
  /** The row of the table this answers. */
  readonly what: string;
  readonly ours: Measure;
  readonly baseline: Measure | null;
  /** In the aim's direction: ours/baseline for throughputs and times, baseline/ours for "× faster". */
  readonly ratio: number | null;
  /** How `ratio` is formed, e.g. `ours ÷ baseline (ops/s)`. */
  readonly ratioOf: string;
  readonly aim: Aim | null;
  readonly met: boolean | null;
  readonly notes?: readonly string[];
}

export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly notes?: readonly string[];
}

export interface FigureOutput {
  readonly figure: string;
  readonly results: readonly FigureResult[];
  readonly tables: readonly Table[];
  readonly durationMs: number;
}

export type FigureRun = (options: BenchOptions) => Promise<{ results: FigureResult[]; tables?: Table[] }>;

export function checkAim(aim: Aim | null, value: number | null): boolean | null {
  if (aim === null || value === null || !Number.isFinite(value)) return null;
  switch (aim.op) {
    case ">=":
      return value >= aim.value;
    case "<=":
      return value <= aim.value;
    case "<":
      return value < aim.value;
  }
}

/** A figure whose ratio is formed from two measures. */
export function figure(f: Omit<FigureResult, "met">): FigureResult {
  return { ...f, met: checkAim(f.aim, f.baseline === null ? f.ours.value : f.ratio) };
}

export function parseOptions(argv: readonly string[]): BenchOptions & { json: string | null } {
  const at = argv.indexOf("--json");
  return { quick: argv.includes("--quick"), json: at >= 0 ? (argv[at + 1] ?? null) : null };
}

function fmtNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

export function fmtMeasure(m: Measure | null): string {
  return m === null ? "—" : `${fmtNumber(m.value)} ${m.unit}`;
}

export function fmtRatio(r: number | null): string {
  return r === null ? "—" : `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`;
}

export function fmtMet(met: boolean | null): string {
  return met === null ? "—" : met ? "yes" : "**no**";
}

export { fmtNumber };

export function resultRows(results: readonly FigureResult[]): string[][] {
  return results.map((r) => [
    r.what,
    `${fmtMeasure(r.ours)} (${r.ours.label})`,
    r.baseline ? `${fmtMeasure(r.baseline)} (${r.baseline.label})` : "—",
    r.baseline ? fmtRatio(r.ratio) : "—",
    r.aim?.text ?? "—",
    fmtMet(r.met),
  ]);
}

export const RESULT_COLUMNS = ["what", "ours", "baseline", "ratio", "aim", "met"] as const;

/** Runs a figure file when it is the entry point: prints its tables, writes `--json FILE`. */
export async function main(importMetaUrl: string, name: string, run: FigureRun): Promise<void> {
  const entry = process.argv[1];
  if (entry === undefined || pathToFileURL(entry).href !== importMetaUrl) return;
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  let code = 0;
  try {
    const { results, tables = [] } = await run(options);
    const output: FigureOutput = { figure: name, results, tables, durationMs: performance.now() - started };
    if (results.length > 0) process.stdout.write(`\n${formatTable([...RESULT_COLUMNS], resultRows(results), "text")}\n`);
    for (const t of tables) process.stdout.write(`\n${t.title}\n${formatTable(t.columns, t.rows, "text")}\n`);
    if (options.json) writeFileSync(options.json, JSON.stringify(output, null, 2));
  } catch (err) {
    process.stderr.write(`bench ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    code = 1;
  } finally {
    await stopAll();
  }
  process.exit(code);
}
