/** Per-method figures shared by reporters: counts and latency percentiles, and where a failing run failed. */
import { canonicalMethod } from "../../spec-facts.js";
import { noCases, RUN_WIDE_METHOD, type CaseCounts, type CaseResult, type RunSummary, type Status } from "../../results.js";

export interface MethodStats {
  readonly method: string;
  readonly counts: CaseCounts;
  readonly p50: number;
  readonly p95: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** "46 cases", or for a run listing only some of them (`check` on a large capture) "1476612 cases (2000 listed)". */
export function casesJudged(summary: RunSummary): string {
  const total = summary.tally?.cases ?? summary.results.length;
  return summary.tally && summary.tally.unlisted > 0 ? `${total} cases (${summary.results.length} listed)` : `${total} cases`;
}

/** The row of cases about no spec method: protocol cases (`liveness`, an unknown method, a raw batch). */
export const PROTOCOL_ROW = "(protocol)";
export const RUN_WIDE_ROW = "(run-wide)";

/** The row a case's method is counted in: the spec's method when the spec names it (an alias counts with its method). */
export function methodRow(method: string): string {
  const named = canonicalMethod(method);
  if (named !== undefined) return named;
  return method === RUN_WIDE_METHOD ? RUN_WIDE_ROW : PROTOCOL_ROW;
}

/** Per method of the spec (and one row each for protocol and run-wide cases): counts over every case judged (the tally's, when only some are listed), latencies over the listed ones. */
export function methodStats(summary: RunSummary): MethodStats[] {
  const groups = new Map<string, CaseResult[]>();
  for (const r of summary.results) groups.set(methodRow(r.method), [...(groups.get(methodRow(r.method)) ?? []), r]);
  const tallied = new Map<string, CaseCounts>();
  for (const [method, counts] of Object.entries(summary.tally?.byMethod ?? {})) {
    const row = methodRow(method);
    const sum = tallied.get(row) ?? noCases();
    for (const status of Object.keys(counts) as Status[]) sum[status] += counts[status] ?? 0;
    tallied.set(row, sum);
    if (!groups.has(row)) groups.set(row, []);
  }
  const rank = (row: string) => (row === PROTOCOL_ROW ? 1 : row === RUN_WIDE_ROW ? 2 : 0);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([method, results]) => {
      const counts = noCases();
      const sum = tallied.get(method);
      if (sum) Object.assign(counts, sum);
      else for (const r of results) counts[r.status]++;
      const latencies = results.flatMap((r) => (r.exchange ? [r.exchange.durationMs] : [])).sort((a, b) => a - b);
      return { method, counts, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
    });
}

/**
 * Where a run failed: failing cases per check (a case counts once for each check that failed
 * it) and per method row, most first. For a run listing only some cases, the tally's counts
 * (per check, those are failing findings).
 */
export function failureGroups(summary: RunSummary): { byCheck: [string, number][]; byMethod: [string, number][] } {
  const byCheck = new Map<string, number>();
  if (summary.tally) for (const [check, counts] of Object.entries(summary.tally.byCheck)) if (counts.fail > 0) byCheck.set(check, counts.fail);
  if (!summary.tally) {
    for (const r of summary.results) {
      if (r.status !== "fail") continue;
      for (const check of new Set(r.findings.filter((f) => f.status === "fail").map((f) => f.check))) byCheck.set(check, (byCheck.get(check) ?? 0) + 1);
    }
  }
  const byMethod = methodStats(summary).flatMap((m): [string, number][] => (m.counts.fail > 0 ? [[m.method, m.counts.fail]] : []));
  const most = (a: [string, number], b: [string, number]) => b[1] - a[1] || a[0].localeCompare(b[0]);
  return { byCheck: [...byCheck].sort(most), byMethod: byMethod.sort(most) };
}
