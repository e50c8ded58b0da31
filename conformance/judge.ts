/** Runs the applicable checks over one exchange, and rolls a run's results into a summary. */
import { envelopeValidators, methods, methodValidators, spec } from "../generated/index.js";
import type { ConformanceCase, Json } from "./case-format.js";
import { checks, type Target } from "./checks/index.js";
import { fail, type CaseResult, type Exchange, type Finding, type RunSummary, type Status, type Tally } from "./model.js";

export interface JudgeOptions {
  readonly strict: boolean;
  /** The id the request carried. */
  readonly requestId: unknown;
  /** Check names to leave out (e.g. `http` for captured traffic that kept no headers). */
  readonly skip?: ReadonlySet<string>;
}

export async function judge(c: ConformanceCase, exchange: Exchange, target: Target, options: JudgeOptions): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const check of checks) {
    if (options.skip?.has(check.name) || !check.applies(c, methods)) continue;
    if (exchange.error && check.name !== "http") continue; // nothing to judge without an answer
    try {
      findings.push(
        ...(await check.run({ testCase: c, exchange, target, methods, validators: methodValidators, envelope: envelopeValidators, strict: options.strict, requestId: options.requestId })),
      );
    } catch (err) {
      findings.push(fail(check.name, `the check could not run: ${(err as Error).message}`));
    }
  }
  return findings;
}

/** Rolls results into a summary; with `totals`, `results` lists only some of the cases and the counts come from `totals`. */
export function summarize(
  results: CaseResult[],
  target: string,
  startedAt: Date,
  durationMs: number,
  options: Record<string, Json>,
  totals?: { readonly counts: Record<Status, number>; readonly tally: Tally },
): RunSummary {
  const counts: Record<Status, number> = totals ? { ...totals.counts } : { pass: 0, fail: 0, warn: 0, skip: 0 };
  if (!totals) for (const r of results) counts[r.status]++;
  return {
    ...(totals ? { tally: totals.tally } : {}),
    target,
    spec: { title: spec.title, version: spec.version, sha256: spec.sha256 },
    startedAt: startedAt.toISOString(),
    durationMs,
    results,
    counts,
    passed: counts.fail === 0,
    options,
  };
}
