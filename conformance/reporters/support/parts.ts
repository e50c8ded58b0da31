/**
 * What several reports show alike (the run's identity, skipped cases, a case's findings and
 * exchange), as plain text: redacted already (index.ts) and not yet escaped. Each reporter
 * passes every string from here through its own sink's function in escape.ts.
 */
import type { CaseCounts, CaseResult, Exchange, Finding, MethodStatus, MethodVerdict, RunIdentity, RunSummary } from "../../results.js";
import type { Verdict } from "../../verdict.js";
import { curlLine } from "./curl.js";
import { clip } from "./escape.js";

/** How much of a request or response body a report quotes. */
export const BODY_EXCERPT = 2000;

export const isProblem = (s: { readonly status: string }): boolean => s.status === "fail" || s.status === "warn";

/** Cases that failed or warned. */
export const problemCases = (summary: RunSummary): CaseResult[] => summary.results.filter(isProblem);

/** The findings of a case a reader must see (failed or warned). */
export const shownFindings = (r: CaseResult): Finding[] => r.findings.filter(isProblem);

/** A finding as lines: `check: message`, then expected and actual when known. */
export function findingLines(f: Finding): string[] {
  return [
    `${f.check}: ${f.message}`,
    ...(f.expected !== undefined ? [`expected: ${f.expected}`] : []),
    ...(f.actual !== undefined ? [`actual: ${f.actual}`] : []),
  ];
}

export interface SkippedCase {
  readonly id: string;
  readonly file: string | undefined;
  readonly reason: string;
}

/** Why a case was skipped: its skip findings' messages. */
export const skipReason = (r: CaseResult): string =>
  r.findings
    .filter((f) => f.status === "skip")
    .map((f) => f.message)
    .join("; ") || "skipped";

/** Skipped cases with their reason. */
export function skippedCases(summary: RunSummary): SkippedCase[] {
  return summary.results.filter((r) => r.status === "skip").map((r) => ({ id: r.id, file: r.file, reason: skipReason(r) }));
}

/** `--case`, `--method` and `--shard` as one line, or "the whole corpus". */
export function selectionText(selection: RunIdentity["selection"]): string {
  const parts = [
    ...(selection.cases.length > 0 ? [`cases ${selection.cases.join(", ")}`] : []),
    ...(selection.methods.length > 0 ? [`methods ${selection.methods.join(", ")}`] : []),
    ...(selection.shard !== null ? [`shard ${selection.shard}`] : []),
  ];
  return parts.length > 0 ? parts.join("; ") : "the whole corpus";
}

/** The run's identity as label/value rows (empty when the summary has none). */
export function identityRows(summary: RunSummary): [label: string, value: string][] {
  const id = summary.identity;
  if (!id) return [];
  return [
    ["Tool", `${id.tool.name} ${id.tool.version}`],
    ["Command", id.command],
    ["Selection", selectionText(id.selection)],
    ["Fixtures", id.fixtures],
    ["Strict", id.strict ? "yes" : "no"],
  ];
}

/** "3 passed, 1 failed, 0 warned, 2 skipped", and ", 40 not run" when the run stopped early. */
export function countsText(summary: RunSummary): string {
  const c = summary.counts;
  const notRun = c.notRun ?? 0;
  return `${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped${notRun > 0 ? `, ${notRun} not run` : ""}`;
}

/** Cases run (passed, failed or warned) of the cases selected (those and the skipped and not run). */
export interface Coverage {
  readonly run: number;
  readonly selected: number;
}

export function coverageOf(counts: Readonly<Partial<CaseCounts>>): Coverage {
  const run = (counts.pass ?? 0) + (counts.fail ?? 0) + (counts.warn ?? 0);
  return { run, selected: run + (counts.skip ?? 0) + (counts.notRun ?? 0) };
}

/** A share rounded down to a tenth of a percent: never 100.0% unless every case ran. */
const percent = (c: Coverage): string => `${c.selected === 0 ? "100" : (Math.floor((c.run * 1000) / c.selected) / 10).toFixed(1)}%`;

/** "660 of 882 selected cases run (74.8%)". */
export function coverageText(summary: Pick<RunSummary, "counts">): string {
  const c = coverageOf(summary.counts);
  return `${c.run} of ${c.selected} selected cases run (${percent(c)})`;
}

/**
 * The closing line whenever some selected case did not run: `coverage: 660 of 882 selected cases run
 * (74.8%): 222 skipped; 2 methods partly certified`; null when every case ran.
 */
export function coverageLine(summary: RunSummary): string | null {
  const c = summary.counts;
  if ((c.skip ?? 0) + (c.notRun ?? 0) === 0) return null;
  const left = [...((c.skip ?? 0) > 0 ? [`${c.skip} skipped`] : []), ...((c.notRun ?? 0) > 0 ? [`${c.notRun} not run`] : [])].join(", ");
  const partly = (summary.methods ?? []).filter((m) => m.status === "partly certified").length;
  return `coverage: ${coverageText(summary)}: ${left}${partly > 0 ? `; ${partly} method${partly === 1 ? "" : "s"} partly certified` : ""}`;
}

/** The outcome colour of a verdict: pass, fail, or warn (interrupted, incomplete: neither). */
export function verdictOutcome(verdict: Verdict): "pass" | "fail" | "warn" {
  return verdict === "CONFORMANT" ? "pass" : verdict === "NOT CONFORMANT" ? "fail" : "warn";
}

/** Cases not run, counted per reason (`interrupted (SIGINT)`, the deadline, --max-failures): never listed one by one. */
export function notRunReasons(summary: RunSummary): [reason: string, count: number][] {
  const byReason = new Map<string, number>();
  for (const r of summary.results) if (r.status === "notRun") byReason.set(r.notRun ?? "not run", (byReason.get(r.notRun ?? "not run") ?? 0) + 1);
  return [...byReason].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** "40 cases not run (interrupted (SIGINT): 38; given up: interrupted (SIGINT): 2)", or null when every case ran or was skipped. */
export function notRunText(summary: RunSummary): string | null {
  const reasons = notRunReasons(summary);
  if (reasons.length === 0) return null;
  const n = reasons.reduce((sum, [, count]) => sum + count, 0);
  const why = reasons.length === 1 ? reasons[0]![0] : reasons.map(([reason, count]) => `${reason}: ${count}`).join("; ");
  return `${n} case${n === 1 ? "" : "s"} not run (${why})`;
}

/** One side of an exchange as text: the request, a curl line to reproduce it, the response excerpt. */
export function exchangeLines(x: Exchange, side = ""): string[] {
  const lead = side ? `${side} ` : "";
  return [
    `${lead}request: ${x.request.method} ${x.request.url}`,
    ...(x.request.body ? [`${lead}request body: ${clip(x.request.body, BODY_EXCERPT)}`] : []),
    `${lead}reproduce: ${curlLine(x.request)}`,
    x.status === 0 ? `${lead}response: none (${x.error ?? "no answer"})` : `${lead}response: HTTP ${x.status} in ${Math.round(x.durationMs)} ms`,
    ...(x.text ? [`${lead}response body: ${clip(x.text, BODY_EXCERPT)}`] : []),
  ];
}

/** A case's exchanges as text (both sides for `diff`), empty when nothing was sent. */
export function caseExchangeLines(r: CaseResult): string[] {
  if (!r.exchange) return [];
  if (!r.against) return exchangeLines(r.exchange);
  return [...exchangeLines(r.exchange, "--url (under test)"), ...exchangeLines(r.against, "--against (trusted)")];
}

/**
 * A method's standing as one phrase, as every report words it: `conformant`, `not conformant`,
 * `not served (3 of 3 calls answered -32601 Method not found)`, `skipped`, then why it is opted
 * out, or that not serving it fails the verdict.
 */
export function methodStatusText(v: MethodVerdict): string {
  const c = coverageOf(v.counts);
  // A standing from some of the method's cases states how many: `partly certified (28 of 65 cases run)`.
  const status =
    v.status === "not served"
      ? `not served (${v.notFound} of ${v.calls} calls answered -32601 Method not found)`
      : c.run > 0 && c.run < c.selected
        ? `${v.status} (${c.run} of ${c.selected} cases run)`
        : v.status;
  if (v.optedOut !== null) return `${status}, opted out: ${v.optedOut}`;
  return v.fails ? `${status}: fails the verdict (--skip-method ${v.method} opts it out)` : status;
}

const STATUS_ORDER: readonly MethodStatus[] = ["not served", "not conformant", "partly certified", "not run", "skipped", "conformant"];

/** "36 conformant, 2 not served (2 opted out)": the methods of a run by standing. */
export function methodCountsText(methods: readonly MethodVerdict[]): string {
  return STATUS_ORDER.flatMap((status) => {
    const these = methods.filter((m) => m.status === status);
    if (these.length === 0) return [];
    const out = these.filter((m) => m.optedOut !== null).length;
    return [`${these.length} ${status}${out > 0 ? ` (${out} opted out)` : ""}`];
  }).join(", ");
}

/**
 * The methods a reader must see named: any not conformant, not served, partly certified, skipped,
 * opted out or conformant from only some of its cases, worst first (those not run because the run
 * stopped are only counted: the stop says why).
 */
export function notableMethods(methods: readonly MethodVerdict[] = []): MethodVerdict[] {
  const partial = (m: MethodVerdict) => m.status === "conformant" && coverageOf(m.counts).run < coverageOf(m.counts).selected;
  return methods
    .filter((m) => (m.status !== "conformant" && m.status !== "not run") || partial(m) || m.optedOut !== null)
    .sort((a, b) => Number(b.fails) - Number(a.fails) || STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status));
}

/** The outcome colour of a method's standing: pass, fail (counts against the verdict), or skip (opted out, skipped). */
export function methodOutcome(v: MethodVerdict): "pass" | "fail" | "warn" | "skip" {
  if (v.status === "conformant") return "pass";
  if (v.status === "not conformant") return "fail";
  if (v.status === "partly certified") return "warn";
  return v.fails ? "fail" : "skip";
}
