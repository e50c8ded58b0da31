/**
 * `diff`'s judging time on the largest answer of the suite (a 1000-item
 * getCompressedTokenAccountsByOwnerV2 page, 791 KiB, as token-accounts-v2/owner-1001-walk gets) against
 * a plain deep comparison (node:util isDeepStrictEqual) of the same two answers. Judging is what
 * `diff` does once both answers are parsed: the classified walk of both bodies and each reply's
 * slot (compare-judge.ts `attemptOf`), then the verdict on what differs (`judgeSecond`: listed
 * differences, identity conflicts, the overlap rule). No network, no parsing in the timed loop.
 *
 * Two pairs, each two separately parsed copies (no shared objects, so both sides walk everything):
 *  - two indexers at different slots with the same data: the figure (aim ≤ 3×); the baseline
 *    compares the two `result.value`s, equal, so it too walks the whole answer;
 *  - the later indexer listing one more account at the front: every item differs by position, the
 *    worst case of an index-aligned comparison; isDeepStrictEqual stops at the first difference of
 *    such a pair, so its baseline is the same deep comparison of the equal pair (the same size).
 * A table shows the judging time per differing path at 1000, 2000 and 4000 items (linear: flat).
 */
import { isDeepStrictEqual } from "node:util";
import { attemptOf, judgeSecond } from "../conformance/compare-judge.js";
import type { ConformanceCase } from "../conformance/case-format.js";
import type { Exchange } from "../conformance/results.js";
import { specMethods } from "../conformance/spec-facts.js";
import { parseJson, stringifyJson } from "../runtime/index.js";
import type { CallContext } from "../runtime/index.js";
import { fixture, responseText } from "./lib/data.js";
import { figure, fmtNumber, main, type BenchOptions, type FigureResult, type Table } from "./lib/figure.js";
import { pairedRatio, summary } from "./lib/stats.js";
import { compare } from "./lib/tiny.js";

const METHOD = "getCompressedTokenAccountsByOwnerV2";
const SLOT = 301002501;

/** The case `diff` judges (what attemptOf reads of it: method, params, matchers). */
function caseOf(params: unknown): ConformanceCase {
  return { id: "bench/largest", method: METHOD, params, expect: { result: {}, batch: null } } as unknown as ConformanceCase;
}

/** An answer as the target transport holds it: parsed losslessly from its own text. */
function exchange(text: string): Exchange {
  return {
    request: {} as never,
    status: 200,
    headers: {},
    text: "",
    body: parseJson(text),
    parseError: null,
    error: null,
    startedAt: 0,
    durationMs: 0,
    attempts: 1,
  };
}

interface Pair {
  readonly request: string;
  readonly c: ConformanceCase;
  readonly x: Exchange;
  readonly y: Exchange;
}

/** The reference's page of `limit` V2 token accounts of the owner of 1000. */
function tokenAccountsPage(limit: number): { context: unknown; value: { items: unknown[]; cursor: unknown } } {
  const { handlers, profile } = fixture();
  const page = handlers.getCompressedTokenAccountsByOwnerV2({ owner: profile.tokenOwnerWith1000TokenAccounts.owner, limit }, {} as CallContext) as {
    context: unknown;
    value: { items: unknown[]; cursor: unknown };
  };
  if (page.value.items.length !== limit) throw new Error(`expected ${limit} token accounts, got ${page.value.items.length}`);
  return page;
}

/** Two answers to the page of `limit` items (`trusted` makes the trusted side's list): the trusted one at SLOT, the other at SLOT + 7, its items edited by `move`. */
function pair(limit: number, move: (items: unknown[]) => unknown[] = (items) => items, trusted: (items: unknown[]) => unknown[] = (items) => items): Pair {
  const page = tokenAccountsPage(limit);
  const params = { owner: "owner", limit };
  const at = (slot: number, items: unknown[]) => responseText({ ...page, context: { slot }, value: { ...page.value, items } });
  const items = trusted(page.value.items);
  return {
    request: stringifyJson({ jsonrpc: "2.0", id: 1, method: METHOD, params }),
    c: caseOf(params),
    x: exchange(at(SLOT + 7, move(items))),
    y: exchange(at(SLOT, items)),
  };
}

/** One more account at the front (a new one, another hash), the last one pushed off the page. */
function oneMoreAtFront(items: unknown[]): unknown[] {
  const first = parseJson(stringifyJson(items[0] as never)) as { account: { hash: string } };
  first.account.hash = `${first.account.hash.slice(0, -4)}zzzz`;
  return [first, ...items.slice(0, -1)];
}

/** diff's judging of one pair: the classified walk, then the verdict when something differs. */
function judge(p: Pair): number {
  const attempt = attemptOf(p.c, p.request, p.x, p.y, specMethods);
  if (attempt.diffs.length === 0 && attempt.rootMoved.length === 0) return 0;
  return judgeSecond(attempt, attempt, specMethods).findings.length;
}

const value = (e: Exchange) => (e.body as { result: { value: unknown } }).result.value;

function checkPairs(same: Pair, moved: Pair): void {
  if (judge(same) !== 0) throw new Error("the same data at two slots was judged to differ");
  if (!isDeepStrictEqual(value(same.x), value(same.y))) throw new Error("the equal pair is not equal");
  const verdict = judgeSecond(
    attemptOf(moved.c, moved.request, moved.x, moved.y, specMethods),
    attemptOf(moved.c, moved.request, moved.x, moved.y, specMethods),
    specMethods,
  );
  if (!verdict.inconclusive) throw new Error(`the moved pair was not inconclusive: ${verdict.findings[0]?.message}`);
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[]; tables: Table[] }> {
  const same = pair(1000);
  const moved = pair(1000, oneMoreAtFront);
  checkPairs(same, moved);
  const sizeKiB = Math.round(responseText(tokenAccountsPage(1000)).length / 1024);
  const times = await compare(
    [
      { name: "judge", fn: () => judge(same) },
      { name: "judge moved", fn: () => judge(moved) },
      { name: "isDeepStrictEqual", fn: () => isDeepStrictEqual(value(same.x), value(same.y)) },
    ],
    options.quick ? { rounds: 2, time: 300, warmupTime: 100 } : { rounds: 7, time: 1000, warmupTime: 300 },
  );
  const t = (name: string) => times.get(name)!;
  const ms = (name: string) => summary(t(name).rounds, 2);
  const differing = attemptOf(moved.c, moved.request, moved.x, moved.y, specMethods).diffs.length;
  const baseline = { label: "node:util isDeepStrictEqual of the two answers' result.value (equal: a full walk)", unit: "ms", ...ms("isDeepStrictEqual") };
  const results = [
    figure({
      id: "diff.judge",
      what: `diff's judging of the largest answer (1000-item ${METHOD}, ${sizeKiB} KiB), two indexers at different slots with the same data`,
      ours: { label: "attemptOf + verdict (compare-judge.ts)", unit: "ms", ...ms("judge") },
      baseline,
      ratio: pairedRatio(t("judge").rounds, t("isDeepStrictEqual").rounds),
      ratioOf: "ours ÷ baseline time",
      aim: { op: "<=", value: 3, text: "≤ 3×" },
      notes: ["the slot (`context.slot`) and the id are ignored; every other value of both answers is visited once"],
    }),
    figure({
      id: "diff.judge-moved",
      what: `the same answer with one more account at the front at the later slot (${fmtNumber(differing)} paths differ by position)`,
      ours: { label: "attemptOf + verdict (inconclusive: state moved, no identity conflict)", unit: "ms", ...ms("judge moved") },
      baseline,
      ratio: pairedRatio(t("judge moved").rounds, t("isDeepStrictEqual").rounds),
      ratioOf: "ours ÷ baseline time",
      aim: null,
      notes: [
        "isDeepStrictEqual stops at this pair's first difference, so the baseline is its full walk of the equal pair of the same size",
        "above the walk: a path string per difference and the identity check matching every account of both sides by hash",
      ],
    }),
  ];
  return { results, tables: [await growthTable(options)] };
}

/** `page`'s items repeated `times` times, each copy's accounts with their own hashes (a list of `times` × 1000 accounts). */
function repeated(items: unknown[], times: number): unknown[] {
  const out: unknown[] = [];
  for (let r = 0; r < times; r++)
    for (const item of items) {
      const copy = parseJson(stringifyJson(item as never)) as { account: { hash: string } };
      copy.account.hash = `${copy.account.hash.slice(0, -3)}${String(r).padStart(3, "x")}`;
      out.push(copy);
    }
  return out;
}

/** Judging time per differing path at 1000, 2000 and 4000 items, each pair one more account at the front: flat when linear. */
async function growthTable(options: BenchOptions): Promise<Table> {
  const times = [1, 2, 4];
  const pairs = times.map((k) => pair(1000, oneMoreAtFront, (items) => repeated(items, k)));
  const paths = pairs.map((p) => attemptOf(p.c, p.request, p.x, p.y, specMethods).diffs.length);
  const measured = await compare(
    pairs.map((p, i) => ({ name: String(times[i]), fn: () => judge(p) })),
    options.quick ? { rounds: 1, time: 200, warmupTime: 50 } : { rounds: 5, time: 1000, warmupTime: 300 },
  );
  const perPath = times.map((k, i) => (measured.get(String(k))!.ms * 1000) / paths[i]!);
  return {
    title: "diff's judging time as the answer grows (one more account at the front: every item differs by position)",
    columns: ["items", "differing paths", "judging (ms)", "µs per differing path"],
    rows: times.map((k, i) => [String(k * 1000), fmtNumber(paths[i]!), measured.get(String(k))!.ms.toFixed(1), perPath[i]!.toFixed(2)]),
    notes: [`time per differing path at 4000 items ÷ at 1000: ${(perPath[2]! / perPath[0]!).toFixed(2)}× (a judgement quadratic in the differing paths: 4×)`],
  };
}

await main(import.meta.url, "diff", run);
