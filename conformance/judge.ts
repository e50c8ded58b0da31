/** Runs the applicable checks over one exchange, and rolls a run's results into a summary. */
import type { Json } from "@photon-indexer-kit/runtime";
import { BoundedFindings, MAX_FINDINGS_PER_CASE } from "./bounded-findings.js";
import type { ConformanceCase } from "./case-format.js";
import { checks, type Target } from "./checks/index.js";
import type { RootLedger } from "./checks/root-ledger.js";
import { ConfErrorCode, ConformanceError } from "./errors.js";
import {
  fail,
  noCases,
  skip,
  type CaseCounts,
  type CaseResult,
  type Exchange,
  type Finding,
  type RunIdentity,
  type RunSummary,
  type Status,
  type Tally,
} from "./results.js";
import { packageInfo } from "./paths.js";
import { decide } from "./verdict.js";
import { defaultSpec, type SpecBundle } from "./spec-bundle.js";

export interface JudgeOptions {
  readonly strict: boolean;
  /** The id the request carried. */
  readonly requestId: unknown;
  /** Check names to leave out (e.g. `http` for captured traffic that kept no headers). */
  readonly skip?: ReadonlySet<string>;
  /** The interface judged against (`--spec`); default the bundled one. */
  readonly spec?: SpecBundle;
  /** The run's ledger of roots, shared by its cases' checks. */
  readonly roots?: RootLedger;
}

/** The findings of the applicable checks about one exchange: at most MAX_FINDINGS_PER_CASE, then a count per check of those left out. */
export async function judge(c: ConformanceCase, exchange: Exchange, target: Target, options: JudgeOptions): Promise<Finding[]> {
  const findings = new BoundedFindings(MAX_FINDINGS_PER_CASE, "case");
  const { methods, validators, envelope } = options.spec ?? defaultSpec;
  for (const check of checks) {
    if (options.skip?.has(check.name) || !check.applies(c, methods)) continue;
    if (exchange.error && check.name !== "http") continue; // nothing to judge without an answer
    try {
      findings.addAll(
        await check.run({
          testCase: c,
          exchange,
          target,
          methods,
          validators,
          envelope,
          strict: options.strict,
          requestId: options.requestId,
          ...(options.roots ? { roots: options.roots } : {}),
        }),
      );
    } catch (err) {
      // A live call asked of captured traffic: the check does not apply there (not a failure, not a pass).
      if (err instanceof ConformanceError && err.code === ConfErrorCode.OFFLINE) findings.add(skip(check.name, `not applicable: ${err.message}`));
      else findings.add(fail(check.name, `the check could not run: ${(err as Error).message}`));
    }
  }
  return findings.done();
}

/** This package's name and version, as every report names the tool that judged. */
export const tool: RunIdentity["tool"] = packageInfo;

/** The identity of a run from what its command was given. */
export function identityOf(
  command: string,
  given: {
    readonly caseGlobs?: readonly string[];
    readonly methods?: readonly string[];
    readonly shard?: { readonly index: number; readonly total: number } | null;
    readonly fixtures: string;
    readonly strict?: boolean;
  },
): RunIdentity {
  return {
    command,
    tool,
    selection: {
      cases: [...(given.caseGlobs ?? [])],
      methods: [...(given.methods ?? [])],
      shard: given.shard ? `${given.shard.index}/${given.shard.total}` : null,
    },
    fixtures: given.fixtures,
    strict: given.strict ?? false,
  };
}

const MAX_NOTED_IDS = 5;

/** One line per distinct noted finding (`note: true`): its message and the cases that showed it. */
export function findingNotes(results: readonly CaseResult[]): string[] {
  const byMessage = new Map<string, string[]>();
  for (const r of results) for (const f of r.findings) if (f.note) byMessage.set(f.message, [...(byMessage.get(f.message) ?? []), r.id]);
  return [...byMessage].map(([message, ids]) => {
    const listed = ids.slice(0, MAX_NOTED_IDS).join(", ") + (ids.length > MAX_NOTED_IDS ? `, and ${ids.length - MAX_NOTED_IDS} more` : "");
    return `${message}: ${ids.length} case${ids.length === 1 ? "" : "s"} (${listed})`;
  });
}

/** What a summary carries besides its results: the run's identity and notes (the noted findings' are added). */
export interface SummaryExtras {
  readonly identity?: RunIdentity;
  readonly notes?: readonly string[];
  /** The interface the run judged against (`--spec`); default the bundled one. */
  readonly spec?: SpecBundle;
}

/** Rolls results into a summary; with `totals`, `results` lists only some of the cases and the counts come from `totals`. */
export function summarize(
  results: CaseResult[],
  target: string,
  startedAt: Date,
  durationMs: number,
  options: Record<string, Json>,
  totals?: { readonly counts: Record<Status, number>; readonly tally: Tally },
  extras: SummaryExtras = {},
): RunSummary {
  const counts: CaseCounts = totals ? { ...noCases(), ...totals.counts } : noCases();
  if (!totals) for (const r of results) counts[r.status]++;
  const notes = [...(extras.notes ?? []), ...findingNotes(results)];
  return decide({
    ...(totals ? { tally: totals.tally } : {}),
    ...(extras.identity ? { identity: extras.identity } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    target,
    spec: { ...(extras.spec ?? defaultSpec).spec },
    startedAt: startedAt.toISOString(),
    durationMs,
    results,
    counts,
    options,
  }).summary;
}
