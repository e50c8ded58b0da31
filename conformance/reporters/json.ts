/** json: machine-readable, one entry per case and check (uint64 values kept exact). */
import { stringifyJson } from "../../runtime/index.js";
import type { RunSummary } from "../model.js";

export function renderJson(summary: RunSummary): string {
  return `${stringifyJson(
    {
      target: summary.target,
      spec: summary.spec,
      startedAt: summary.startedAt,
      durationMs: Math.round(summary.durationMs),
      passed: summary.passed,
      counts: summary.counts,
      options: summary.options,
      ...(summary.discovered !== undefined ? { discoveredFixtures: summary.discovered } : {}),
      cases: summary.results.map((r) => ({
        id: r.id,
        method: r.method,
        required: r.required,
        status: r.status,
        durationMs: Math.round(r.durationMs),
        checks: r.findings,
        request: r.exchange?.request ?? null,
        response: r.exchange ? { status: r.exchange.status, error: r.exchange.error } : null,
      })),
    },
  )}\n`;
}
