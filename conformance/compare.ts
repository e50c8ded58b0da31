/**
 * `photon-conformance diff --url A --against B`: the same requests to two indexers, answers normalised
 * and compared; B is trusted ("expected"), each side gets its own headers only. A difference is judged
 * by its field's `x-moves-with` (DECISIONS rows 76 and 84) and the replies' slots: `fixed` fails,
 * `state`/`slot` fail only at the same slot, `root` only at the same root sequence. When all may come
 * from the chain moving the case is asked again; still differing, it is inconclusive, and the
 * `diff/inconclusive` result fails past `maxInconclusive` (default 10% of required cases).
 */
import type { Json } from "@photon-indexer-kit/runtime";
import { resultSource, type ConformanceCase, type Fixtures } from "./case-format.js";
import { attemptOf, judgeAttempts, type Attempt } from "./compare-judge.js";
import { identityOf, summarize } from "./judge.js";
import { rollUp, type CaseResult, type RunSummary } from "./results.js";
import { requestOf, skipped } from "./run.js";
import { openSession, type Session } from "./session.js";
import type { MethodTable } from "./spec-facts.js";
import type { RawTarget } from "./target.js";
import { budgetText, decide, DEFAULT_MAX_INCONCLUSIVE, type Budget } from "./verdict.js";

export { differences } from "./compare-walk.js";
export { valueAt } from "./compare-judge.js";

export interface DiffOptions {
  /** The indexer under test. */
  readonly url: string;
  /** The trusted indexer it is compared with. */
  readonly against: string;
  /** Sent to `url` only. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent to `against` only. */
  readonly againstHeaders?: Readonly<Record<string, string>>;
  readonly casesDir: string;
  readonly fixtures: Fixtures;
  readonly methods?: readonly string[];
  readonly caseGlobs?: readonly string[];
  /** How the reports name the fixtures profile: the file as given, `reference` (the default) or `discovered`. */
  readonly fixturesName?: string;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** Required cases allowed to stay inconclusive: a count, or a share (default 10% of the required cases compared). */
  readonly maxInconclusive?: number | Budget;
  readonly onResult?: (result: CaseResult, done: number, total: number) => void;
}

async function attempt(c: ConformanceCase, a: RawTarget, b: RawTarget, table: MethodTable): Promise<Attempt> {
  const { body } = requestOf(c, a);
  const [x, y] = await Promise.all([a.send(c.http, body), b.send(c.http, body)]);
  return attemptOf(c, body, x, y, table);
}

async function diffCase(c: ConformanceCase, a: RawTarget, b: RawTarget, table: MethodTable): Promise<{ result: CaseResult; inconclusive: boolean }> {
  if (c.skip) return { result: skipped(c), inconclusive: false };
  const started = performance.now();
  const { findings, inconclusive, last } = await judgeAttempts(() => attempt(c, a, b, table), table);
  const result: CaseResult = {
    id: c.id,
    method: c.method,
    description: c.description,
    required: c.required,
    findings,
    // Judged: the results keep what reports read, not the parsed answers (a long diff would hold every one).
    exchange: { ...last.x, body: undefined },
    against: { ...last.y, body: undefined },
    status: rollUp(findings, c.required),
    durationMs: performance.now() - started,
    ...resultSource(c),
  };
  return { result, inconclusive: inconclusive && c.required };
}

const budgetOf = (max: number | Budget | undefined): Budget =>
  max === undefined ? DEFAULT_MAX_INCONCLUSIVE : typeof max === "number" ? { count: max, percent: false } : max;

/**
 * Compares `options.url` with `options.against` over the selected cases. Given an open
 * `session` (two targets: under test, then trusted), uses it instead of opening one; the caller
 * closes it.
 */
export async function diffTargets(options: DiffOptions, given?: Session): Promise<RunSummary> {
  const startedAt = new Date();
  const t0 = performance.now();
  // Each side with its own headers only. Answers are kept as they came (judged unmasked); the
  // caller masks both sides' secrets at the output edge.
  const session =
    given ??
    (await openSession({
      ...options,
      targets: [
        { url: options.url, headers: options.headers },
        { url: options.against, headers: options.againstHeaders },
      ],
    }));
  try {
    const [a, b] = session.targets as [RawTarget, RawTarget];
    const cases = session.cases;
    await session.ensureReachable();
    const inconclusive: string[] = [];
    const results = await session.pool(
      async (c) => {
        const judged = await diffCase(c, a, b, session.spec.methods);
        if (judged.inconclusive) inconclusive.push(judged.result.id);
        return judged.result;
      },
      { onResult: (r, done) => options.onResult?.(r, done, cases.length) },
    );
    const budget = budgetOf(options.maxInconclusive);
    const shown: Record<string, Json> = {
      url: a.display,
      against: b.display,
      trusted: "against",
      cases: cases.length,
      inconclusive: inconclusive.length,
      maxInconclusive: budget.percent ? budgetText(budget) : budget.count,
    };
    const summary = summarize(
      results,
      `${a.display} (under test, --url) against ${b.display} (trusted, --against)`,
      startedAt,
      performance.now() - t0,
      shown,
      undefined,
      {
        identity: identityOf("diff", { ...options, shard: null, fixtures: options.fixturesName ?? "(given to diffTargets)" }),
        spec: session.spec,
      },
    );
    return decide(summary, { inconclusive: { ids: inconclusive.sort(), budget } }).summary;
  } finally {
    if (!given) await session.close();
  }
}
