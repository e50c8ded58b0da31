/**
 * The verdict of every command (run, diff, check, record) and its exit status, from the counts
 * and results it judged and the rules it was given (--max-skipped, diff's inconclusive budget,
 * the opted-out methods). `decide` is the one rule; reporters read `verdictOf` a decided summary.
 */
import { ExitStatus, type ExitStatusValue } from "@photon-indexer-kit/runtime";
import {
  fail,
  noCases,
  pass,
  runWideResult,
  warn,
  type CaseCounts,
  type CaseResult,
  type MethodStatus,
  type MethodVerdict,
  type RunSummary,
} from "./results.js";
import { defaultSpec } from "./spec-bundle.js";
import { canonicalMethod, type MethodTable } from "./spec-facts.js";

/** A number of cases, or (`percent`) a share of those counted: `--max-skipped 5`, `--max-inconclusive 10%`. */
export interface Budget {
  readonly count: number;
  readonly percent: boolean;
}

/** How many cases of `of` a budget allows. */
const allowed = (budget: Budget, of: number): number => (budget.percent ? (of * budget.count) / 100 : budget.count);

/** A budget as the command line takes it: `10%` or `3`. */
export const budgetText = (b: Budget): string => (b.percent ? `${b.count}%` : String(b.count));

/** A tenth of the required cases compared may stay inconclusive before a diff fails. */
export const DEFAULT_MAX_INCONCLUSIVE: Budget = { count: 10, percent: true };

/** The id of diff's run-wide result on inconclusive cases. */
export const INCONCLUSIVE_ID = "diff/inconclusive";

/**
 * A run's verdict: CONFORMANT (complete, nothing failed), NOT CONFORMANT (something failed),
 * INTERRUPTED (Ctrl-C, whatever ran), INCOMPLETE (nothing failed, but not every case ran).
 */
export type Verdict = "CONFORMANT" | "NOT CONFORMANT" | "INTERRUPTED" | "INCOMPLETE";

/** The check name of the one finding of a case whose method was opted out. */
export const OPTED_OUT = "method";

/** Whether a result is that of a case not run because the user opted its method out (`--skip-method`): not a skip for want of fixtures. */
export function isOptedOut(r: CaseResult): boolean {
  return r.status === "skip" && r.findings.length === 1 && r.findings[0]!.check === OPTED_OUT;
}

/**
 * Each spec method the results call, in table order, with its standing (`MethodStatus`). A method not
 * served fails the verdict unless `optedOut` names it.
 */
export function methodVerdicts(
  results: readonly CaseResult[],
  optedOut: ReadonlyMap<string, string>,
  table: MethodTable = defaultSpec.methods,
): MethodVerdict[] {
  const byMethod = new Map<string, CaseResult[]>();
  for (const r of results) {
    const method = canonicalMethod(r.method, table);
    if (method !== undefined) byMethod.set(method, [...(byMethod.get(method) ?? []), r]);
  }
  return Object.keys(table).flatMap((method): MethodVerdict[] => {
    const rs = byMethod.get(method);
    if (!rs) return [];
    const counts = noCases();
    for (const r of rs) counts[r.status]++;
    const calls = rs.filter((r) => r.served !== undefined).length;
    const notFound = rs.filter((r) => r.served === false).length;
    const ran = counts.pass + counts.fail + counts.warn;
    const status: MethodStatus =
      calls > 0 && notFound === calls
        ? "not served"
        : counts.fail > 0
          ? "not conformant"
          : ran === 0
            ? counts.notRun > 0
              ? "not run"
              : "skipped"
            : ran * 2 < rs.length
              ? "partly certified"
              : "conformant";
    const why = optedOut.get(method) ?? null;
    return [{ method, status, counts, calls, notFound, optedOut: why, fails: status === "not served" && why === null }];
  });
}

const MAX_LISTED = 20;

/** diff's run-wide result on inconclusive cases: fails past the budget (a share counted over the required cases compared). */
function inconclusiveResult(ids: readonly string[], budget: Budget, compared: number): CaseResult {
  const listedIds = ids.length > 0 ? `: ${ids.slice(0, MAX_LISTED).join(", ")}${ids.length > MAX_LISTED ? ", …" : ""}` : "";
  const shown = budget.percent ? `${budgetText(budget)} of ${compared} required cases compared` : budgetText(budget);
  const message = `${ids.length} required case${ids.length === 1 ? "" : "s"} inconclusive (answers differing only where the chain moves, at different slots twice), --max-inconclusive ${shown}${listedIds}`;
  const findings = [ids.length > allowed(budget, compared) ? fail("diff", message) : ids.length > 0 ? warn("diff", message) : pass("diff", message)];
  return runWideResult(INCONCLUSIVE_ID, "differences that slot movement may explain stay within --max-inconclusive", findings);
}

/** `--max-skipped`: past it, a failing run-wide result says how many cases were skipped (opted-out methods' cases are not counted). */
function skipLimitResult(results: readonly CaseResult[], limit: Budget): CaseResult | null {
  const cases = results.filter((r) => !r.id.startsWith("run/") && !isOptedOut(r));
  const skipped = cases.filter((r) => r.status === "skip").length;
  if (skipped <= allowed(limit, cases.length)) return null;
  const shown = limit.percent ? `${limit.count}% of ${cases.length} cases` : `${limit.count}`;
  const finding = fail("fixtures", `${skipped} of ${cases.length} cases were skipped, more than --max-skipped ${shown} allows`);
  return runWideResult("run/max-skipped", "no more cases skipped than --max-skipped allows", [finding]);
}

/** What a verdict is read from: a summary's counts and results, run's method standings, and whether Ctrl-C stopped it. */
export type Judged = Pick<RunSummary, "counts" | "results"> & Partial<Pick<RunSummary, "methods" | "interrupted">>;

export interface VerdictRules {
  /** `--max-skipped`: more skipped cases fail the run. */
  readonly maxSkipped?: Budget | undefined;
  /** diff: the required cases that stayed inconclusive, and how many may (`--max-inconclusive`). */
  readonly inconclusive?: { readonly ids: readonly string[]; readonly budget: Budget } | undefined;
  /** run: each method's standing, its opted-out methods named (`--skip-method`, `x-registered: false`). */
  readonly methods?: { readonly optedOut: ReadonlyMap<string, string>; readonly table: MethodTable } | undefined;
  /** run: every case skipped certifies nothing, a usage error (exit 2). */
  readonly refuseAllSkipped?: boolean | undefined;
}

export interface Decided<S extends Judged> {
  /** The summary with the rules' results added (counted) and `passed` set. */
  readonly summary: S & { readonly passed: boolean };
  readonly verdict: Verdict;
  readonly exit: ExitStatusValue;
  /** Why the command exits 2 although it ran (every case skipped), for stderr; else null. */
  readonly refusal: string | null;
}

/** The verdict of a decided summary (its `passed`, counts, method standings and stop), as reports name it. */
export function verdictOf(summary: Pick<RunSummary, "passed" | "interrupted" | "counts" | "methods">): Verdict {
  if (summary.interrupted) return "INTERRUPTED";
  if (summary.passed) return "CONFORMANT";
  const failed = summary.counts.fail > 0 || (summary.methods ?? []).some((m) => m.fails);
  return !failed && (summary.counts.notRun ?? 0) > 0 ? "INCOMPLETE" : "NOT CONFORMANT";
}

/**
 * The one verdict rule: a run passes only complete (no case failed or not run), not stopped by
 * Ctrl-C, with no method failing its standing; the rules add their run-wide results first.
 * Exit 130 when stopped, 2 when `refuseAllSkipped` and every case was skipped, else 0 or 1.
 */
export function decide<S extends Judged>(judged: S, rules: VerdictRules = {}): Decided<S> {
  const results = [...judged.results];
  const counts: CaseCounts = { ...noCases(), ...judged.counts };
  const add = (r: CaseResult | null): void => {
    if (r === null) return;
    results.push(r);
    counts[r.status]++;
  };
  if (rules.inconclusive) {
    const compared = results.filter((r) => r.required && r.status !== "skip").length;
    add(inconclusiveResult(rules.inconclusive.ids, rules.inconclusive.budget, compared));
  }
  if (rules.maxSkipped) add(skipLimitResult(results, rules.maxSkipped));
  const methods = rules.methods ? methodVerdicts(results, rules.methods.optedOut, rules.methods.table) : judged.methods;
  const interrupted = judged.interrupted === true;
  const passed = counts.fail === 0 && counts.notRun === 0 && !interrupted && !(methods ?? []).some((m) => m.fails);
  const summary = {
    ...judged,
    results,
    counts,
    passed,
    ...(methods ? { methods } : {}),
    ...(interrupted ? { interrupted: true as const } : {}),
  };
  const verdict = verdictOf(summary);
  const refusal = rules.refuseAllSkipped && !interrupted ? allSkipped(results) : null;
  const exit = interrupted ? ExitStatus.INTERRUPTED : refusal !== null ? ExitStatus.USAGE : passed ? ExitStatus.OK : ExitStatus.FAILED;
  return { summary, verdict, exit, refusal };
}

/** Why a run of which every case was skipped certifies nothing; null when some case was not skipped. */
function allSkipped(results: readonly CaseResult[]): string | null {
  if (results.length === 0 || !results.every((r) => r.status === "skip")) return null;
  const why = results.every(isOptedOut)
    ? "the methods of every selected case are opted out (--skip-method), so nothing was run"
    : results.some(isOptedOut)
      ? "the fixtures profile fills none of them, and the others' methods are opted out (--skip-method)"
      : "the fixtures profile fills none of them";
  return `every case was skipped: ${why}`;
}
