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

export function methodStats(summary: RunSummary): MethodStats[] {
  const groups = new Map<string, CaseResult[]>();
  for (const r of summary.results) groups.set(r.method, [...(groups.get(r.method) ?? []), r]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([method, results]) => {
      const counts: Record<Status, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
      for (const r of results) counts[r.status]++;
      const latencies = results.flatMap((r) => (r.exchange ? [r.exchange.durationMs] : [])).sort((a, b) => a - b);
      return { method, counts, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
    });
}
