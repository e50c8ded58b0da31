/**
 * Bounded lists of findings. A target can make a check find something in each of a hundred
 * thousand objects of one answer; kept whole, such a list costs hundreds of MB to hold and report.
 * A list keeps its first findings up to its limit and only counts the rest; `done()` then adds,
 * per check, one finding giving the count left out with the worst status among them, so a failure
 * left out still fails its case.
 */
import type { Finding, Status } from "./results.js";

/** Findings one check keeps about one answer (with its follow-up calls) at most. */
export const MAX_FINDINGS_PER_ANSWER = 100;
/** Findings one case keeps at most, over all its checks. */
export const MAX_FINDINGS_PER_CASE = 200;

/** Worst first: the status a count of left-out findings takes. */
const RANK: Readonly<Record<Status, number>> = { skip: 0, pass: 1, warn: 2, fail: 3 };

interface LeftOut {
  count: number;
  failing: number;
  worst: Status;
}

export class BoundedFindings {
  readonly #kept: Finding[] = [];
  /** Check name → what was left out of it. */
  readonly #left = new Map<string, LeftOut>();
  #failed = false;

  /** `per`: what the limit counts, for the message ("answer", "case"). */
  constructor(
    private readonly limit: number,
    private readonly per: string,
  ) {}

  /** Keeps `f` while under the limit, else counts it. */
  add(f: Finding): void {
    if (f.status === "fail") this.#failed = true;
    if (this.#kept.length < this.limit) {
      this.#kept.push(f);
      return;
    }
    const left = this.#left.get(f.check);
    if (left === undefined) this.#left.set(f.check, { count: 1, failing: f.status === "fail" ? 1 : 0, worst: f.status });
    else {
      left.count++;
      if (f.status === "fail") left.failing++;
      if (RANK[f.status] > RANK[left.worst]) left.worst = f.status;
    }
  }

  /** Keeps `f` whatever the limit: one of the few closing findings that say what a check came to. */
  keep(f: Finding): void {
    if (f.status === "fail") this.#failed = true;
    this.#kept.push(f);
  }

  /** Adds each finding in turn (never as call arguments: a list can be longer than the stack allows). */
  addAll(findings: Iterable<Finding>): void {
    for (const f of findings) this.add(f);
  }

  /** Whether a failing finding was added, kept or not. */
  get failed(): boolean {
    return this.#failed;
  }

  /** The kept findings, then one per check that had findings left out, giving their count. */
  done(): Finding[] {
    const out = this.#kept.slice();
    for (const [check, left] of this.#left)
      out.push({
        check,
        status: left.worst,
        message: `${left.count} more finding${left.count === 1 ? "" : "s"} left out (${left.failing} failing): at most ${this.limit} per ${this.per}`,
      });
    return out;
  }
}
