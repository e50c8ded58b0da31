/** Per-method figures shared by reporters: counts and latency percentiles. */
import type { CaseResult, RunSummary, Status } from "../model.js";

export interface MethodStats {
  readonly method: string;
  readonly counts: Record<Status, number>;
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

/** Per method: counts over every case judged (the tally's, when only some are listed), latencies over the listed ones. */
export function methodStats(summary: RunSummary): MethodStats[] {
  const groups = new Map<string, CaseResult[]>();
  for (const r of summary.results) groups.set(r.method, [...(groups.get(r.method) ?? []), r]);
  for (const method of Object.keys(summary.tally?.byMethod ?? {})) if (!groups.has(method)) groups.set(method, []);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([method, results]) => {
      const counts: Record<Status, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
      const tallied = summary.tally?.byMethod[method];
      if (tallied) Object.assign(counts, tallied);
      else for (const r of results) counts[r.status]++;
      const latencies = results.flatMap((r) => (r.exchange ? [r.exchange.durationMs] : [])).sort((a, b) => a - b);
      return { method, counts, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
    });
}
