/**
 * json: machine-readable, one entry per case and check (uint64 values kept exact). Written by
 * `forJson`: valid JSON whatever the strings hold (lone surrogates as `\ud800`, and the
 * invisible characters JSON.stringify leaves raw as `\u…`), each value kept exactly.
 */
import type { RunSummary } from "../results.js";
import { verdictOf } from "../verdict.js";
import { forJson } from "./support/escape.js";
import { coverageOf, methodStatusText } from "./support/parts.js";

export function renderJson(summary: RunSummary): string {
  return `${forJson({
    target: summary.target,
    spec: summary.spec,
    startedAt: summary.startedAt,
    durationMs: Math.round(summary.durationMs),
    passed: summary.passed,
    // CONFORMANT, NOT CONFORMANT, INTERRUPTED (Ctrl-C) or INCOMPLETE (stopped by --max-time, nothing failed).
    verdict: verdictOf(summary),
    counts: summary.counts,
    // Cases run (passed, failed or warned) of the cases selected; per method below too.
    coverage: coverageOf(summary.counts),
    options: summary.options,
    ...(summary.identity !== undefined ? { identity: summary.identity } : {}),
    ...(summary.notes !== undefined ? { notes: summary.notes } : {}),
    // Each method's standing: conformant, not conformant, not served (-32601 to every call) or skipped, and why it is opted out.
    ...(summary.methods !== undefined
      ? { methods: summary.methods.map((m) => ({ ...m, coverage: coverageOf(m.counts), standing: methodStatusText(m) })) }
      : {}),
    ...(summary.discovered !== undefined ? { discoveredFixtures: summary.discovered } : {}),
    cases: summary.results.map((r) => ({
      id: r.id,
      method: r.method,
      ...(r.file !== undefined ? { file: r.file } : {}),
      ...(r.derivedFrom !== undefined ? { derivedFrom: r.derivedFrom } : {}),
      required: r.required,
      status: r.status,
      ...(r.notRun !== undefined ? { notRun: r.notRun } : {}),
      durationMs: Math.round(r.durationMs),
      checks: r.findings,
      request: r.exchange?.request ?? null,
      ...(r.against ? { againstRequest: r.against.request } : {}),
      response: r.exchange ? { status: r.exchange.status, error: r.exchange.error } : null,
    })),
  })}\n`;
}
