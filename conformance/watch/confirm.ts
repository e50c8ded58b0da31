/**
 * Each method's standing across runs, for `photon_conformance_method_conformant`: a method reads
 * 0 only once it failed in `confirm` consecutive runs that decided it, and 1 again at its next pass.
 * A run that did not decide a method (moved, skipped, not run) neither counts nor breaks a streak.
 */
import type { MethodStatus, MethodVerdict } from "../results.js";

/** What one run says of one method: it failed, it passed, or it decided nothing. */
export type MethodOutcome = "fail" | "pass" | "undecided";

/**
 * A run's word on a method: failed (a case failed, or not served and not opted out); passed (its
 * cases ran and none failed; a relation left inconclusive because the target moved is a warning,
 * never a failure); else undecided (none ran, or every call was answered not found but opted out).
 */
export function outcomeOf(m: Pick<MethodVerdict, "status" | "fails">): MethodOutcome {
  if (m.status === "not conformant" || m.fails) return "fail";
  const passing: readonly MethodStatus[] = ["conformant", "partly certified"];
  return passing.includes(m.status) ? "pass" : "undecided";
}

export interface MethodStanding {
  /** 1 until a failure is confirmed, then 0 until the method passes again. */
  readonly conformant: 0 | 1;
  /** Consecutive deciding runs it failed in, up to now. */
  readonly failingRuns: number;
}

export class Confirmations {
  private readonly standings = new Map<string, MethodStanding>();

  /** `confirm`: the consecutive failing runs that set a method to 0 (at least 1). */
  constructor(private readonly confirm: number) {}

  /** Takes one completed run's method outcomes; methods it does not name keep their standing. */
  record(outcomes: ReadonlyMap<string, MethodOutcome>): void {
    for (const [method, outcome] of outcomes) {
      const before = this.standings.get(method);
      if (outcome === "pass") this.standings.set(method, { conformant: 1, failingRuns: 0 });
      else if (outcome === "fail") {
        const failingRuns = (before?.failingRuns ?? 0) + 1;
        this.standings.set(method, { conformant: failingRuns >= this.confirm ? 0 : (before?.conformant ?? 1), failingRuns });
      }
    }
  }

  /** Every method some run decided, with its standing (a method never decided has none: it is not exported). */
  all(): ReadonlyMap<string, MethodStanding> {
    return this.standings;
  }
}
