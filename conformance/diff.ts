/**
 * `photon-conformance diff --url A --against B`: the same requests to two indexers, answers
 * normalised (key order, `context.slot`, paths the case's matchers declare variable) and compared; each
 * difference is reported with its JSON path. When the two answers differ and so do their
 * slots, the case is retried once and, if still different, marked inconclusive (a warning).
 */
import { createRedactor, secretsOf, stringifyJson, type RetryOptions } from "../runtime/index.js";
import { loadCases, type ConformanceCase, type Fixtures, type Json } from "./case-format.js";
import { isObject, show } from "./checks/check.js";
import { ABSENT, getPath } from "./matchers.js";
import { summarize } from "./judge.js";
import { fail, pass, rollUp, warn, type CaseResult, type Exchange, type Finding, type RunSummary } from "./model.js";
import { ensureReachable, requestOf, selectCases, skipped } from "./run.js";
import { createTarget, type RawTarget } from "./target.js";

export interface DiffOptions {
  readonly url: string;
  readonly against: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly casesDir: string;
  readonly fixtures: Fixtures;
  readonly methods?: readonly string[];
  readonly caseGlobs?: readonly string[];
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly onResult?: (result: CaseResult, done: number, total: number) => void;
}

const MAX_LISTED = 20;
const SLOT = "result.context.slot";

function slotOf(body: unknown): unknown {
  return isObject(body) && isObject(body.result) && isObject(body.result.context) ? body.result.context.slot : undefined;
}

/** Matchers that say a value varies by deployment or moment (`{any: true}`, `{type: …}`, `{matches: …}`). */
const VARYING = new Set(["any", "type", "matches"]);

/** Paths (dotted, into the reply) the comparison ignores: the slot, and what the case's matchers say may vary. */
function ignoredPaths(c: ConformanceCase): Set<string> {
  const ignored = new Set([SLOT, "id"]);
  for (const [path, matcher] of Object.entries(c.expect.result ?? {})) {
    if (isObject(matcher) && Object.keys(matcher).some((k) => VARYING.has(k))) ignored.add(`result.${path}`);
  }
  return ignored;
}

/** Every path where two JSON values differ (objects compared by key, not key order). */
export function differences(a: unknown, b: unknown, ignored: ReadonlySet<string>, path = ""): string[] {
  if (ignored.has(path)) return [];
  const at = path || "(root)";
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) return BigInt(a) === BigInt(b) ? [] : [at];
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) out.push(`${path ? `${path}.` : ""}${i}`);
      else out.push(...differences(a[i], b[i], ignored, path ? `${path}.${i}` : String(i)));
    }
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => (!(k in a) || !(k in b) ? (ignored.has(path ? `${path}.${k}` : k) ? [] : [path ? `${path}.${k}` : k]) : differences(a[k], b[k], ignored, path ? `${path}.${k}` : k)));
  }
  return a === b ? [] : [at];
}

/** The value at a path that `differences` reported (undefined where one side lacks it). */
export function valueAt(body: unknown, path: string): unknown {
  const value = getPath(body, path === "(root)" ? "" : path);
  return value === ABSENT ? undefined : value;
}

async function both(c: ConformanceCase, a: RawTarget, b: RawTarget): Promise<[Exchange, Exchange]> {
  const { body } = requestOf(c, a);
  return Promise.all([a.send(c.http, body), b.send(c.http, body)]);
}

function compare(c: ConformanceCase, x: Exchange, y: Exchange): { findings: Finding[]; slotsDiffer: boolean } {
  if (x.error || y.error) return { findings: [fail("diff", `no answer: ${x.error ?? y.error}`)], slotsDiffer: false };
  const findings: Finding[] = [];
  if (x.status !== y.status) findings.push(fail("diff", "HTTP status differs", String(x.status), String(y.status)));
  const paths = x.parseError || y.parseError ? (x.text === y.text ? [] : ["(body)"]) : differences(x.body, y.body, ignoredPaths(c));
  for (const path of paths.slice(0, MAX_LISTED)) {
    findings.push(fail("diff", `answers differ at ${path}`, show(path === "(body)" ? x.text : valueAt(x.body, path)), show(path === "(body)" ? y.text : valueAt(y.body, path))));
  }
  if (paths.length > MAX_LISTED) findings.push(fail("diff", `…and ${paths.length - MAX_LISTED} more differences`));
  const sx = slotOf(x.body);
  const sy = slotOf(y.body);
  return { findings, slotsDiffer: sx !== undefined && sy !== undefined && stringifyJson(sx) !== stringifyJson(sy) };
}

async function diffCase(c: ConformanceCase, a: RawTarget, b: RawTarget): Promise<CaseResult> {
  if (c.skip) return skipped(c);
  const started = performance.now();
  let [x, y] = await both(c, a, b);
  let { findings, slotsDiffer } = compare(c, x, y);
  if (findings.length > 0 && slotsDiffer) {
    [x, y] = await both(c, a, b); // the indexers were at different slots: ask again once
    ({ findings, slotsDiffer } = compare(c, x, y));
    if (findings.length > 0 && slotsDiffer) {
      findings = [warn("diff", `inconclusive: the answers differ, but so do the slots (${show(slotOf(x.body))} vs ${show(slotOf(y.body))}), twice`), ...findings.map((f) => ({ ...f, status: "warn" as const }))];
    }
  }
  if (findings.length === 0) findings.push(pass("diff", "same answer"));
  return { id: c.id, method: c.method, description: c.description, required: c.required, findings, exchange: x, status: rollUp(findings, c.required), durationMs: performance.now() - started };
}

export async function diffTargets(options: DiffOptions): Promise<RunSummary> {
  const startedAt = new Date();
  const t0 = performance.now();
  const headers = options.headers ?? {};
  const redact = createRedactor([...secretsOf(options.url, { ...headers }), ...secretsOf(options.against)]);
  const retry: RetryOptions = { retries: 5, minDelayMs: 100, maxDelayMs: 5000, budgetMs: 10_000 };
  const make = (url: string) => createTarget({ url, headers, timeoutMs: options.timeoutMs ?? 10_000, maxBodyBytes: 16 * 1024 * 1024, maxRps: null, retry, redact });
  const a = make(options.url);
  const b = make(options.against);
  const cases = selectCases(await loadCases(options.casesDir, options.fixtures), options);
  await ensureReachable(a, options.url, options.timeoutMs ?? 10_000);
  await ensureReachable(b, options.against, options.timeoutMs ?? 10_000);
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      results[i] = await diffCase(cases[i]!, a, b);
      options.onResult?.(results[i]!, ++done, cases.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, cases.length)) }, worker));
  const options_: Record<string, Json> = { against: b.display, cases: cases.length };
  return summarize(results, `${a.display} against ${b.display}`, startedAt, performance.now() - t0, options_);
}
