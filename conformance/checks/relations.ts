/**
 * Cross-method expectations of a case (`expect.agrees`, `expect.sum`, `expect.follow`; see
 * cases/README.md): generic code, the case names the methods. Called by the semantics check.
 */
import { isObject, type Json, type MethodInfo } from "@photon-indexer-kit/runtime";
import type { AgreesExpectation, FollowExpectation, SumExpectation } from "../case-format.js";
import { ABSENT, deepEqual, getPath, match, matcherName } from "../matchers.js";
import { fail, pass, type Finding } from "../results.js";
import { atOneSlot, CHANGED, resultOf, unanswered, type Judged } from "../same-slot.js";
import { itemsOf, methodInfo, pageOf } from "../spec-facts.js";
import { show, type CheckContext } from "./check.js";
import { declared } from "./declared.js";
import { walk } from "./walk.js";

const S = "semantics";
/** Differing paths named in one finding. */
const SHOWN = 3;
/** Pages one relation's walk may take. */
const PAGES = 1000;

/** A result, or why there is none: `errorAnswer` when the target answered a JSON-RPC error (right or wrong only at its slot). */
type Answer = { result: unknown } | { problem: string; errorAnswer: boolean };

async function answer(ctx: CheckContext, method: string, params: unknown): Promise<Answer> {
  const exchange = await ctx.target.call(method, params);
  const body = exchange.body;
  if (!exchange.error && isObject(body) && "result" in body) return { result: body.result };
  const errorAnswer = !exchange.error && isObject(body) && !!body.error;
  return {
    problem: `${method} did not answer: ${exchange.error ?? (errorAnswer ? `error ${show((body as Record<string, unknown>).error)}` : `HTTP ${exchange.status}`)}`,
    errorAnswer,
  };
}

/** Whether a case value refers to the case's own result (`{result: path}` anywhere in it). */
function refersToResult(value: Json | undefined): boolean {
  if (Array.isArray(value)) return value.some(refersToResult);
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "result" && typeof value.result === "string") return true;
  return keys.some((k) => refersToResult(value[k]));
}

/** Replaces every `{item: path}` / `{result: path}` (one key, a string) by the value there; an absent value never matches. */
export function resolveRefs(value: Json | undefined, refs: { item?: unknown; result?: unknown }): Json | undefined {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, refs) as Json);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (matcherName(value) === "matches") return value; // a pattern is the case's own text, never an answer's (patternProblem)
  if (keys.length === 1 && (keys[0] === "item" || keys[0] === "result") && typeof value[keys[0]] === "string" && keys[0] in refs) {
    return getPath(refs[keys[0] as "item" | "result"], value[keys[0]] as string) as Json; // ABSENT stays ABSENT: it matches nothing
  }
  return Object.fromEntries(keys.map((k) => [k, resolveRefs(value[k], refs) as Json]));
}

/** The paths where `ours` does not hold every leaf of `theirs` (renamed per `rename`); at most `limit`. */
export function unheldLeaves(
  theirs: unknown,
  ours: unknown,
  rename: Readonly<Record<string, string>>,
  limit = SHOWN,
): { path: string; want: unknown; got: unknown }[] {
  const out: { path: string; want: unknown; got: unknown }[] = [];
  // The path so far as steps (ours: renamed keys and indexes) and as a pattern (theirs: keys, `*` for
  // an index; for renames only); written out only for a leaf that differs (most hold).
  const steps: (string | number)[] = [];
  const pattern: string[] = [];
  const renames = Object.keys(rename).length > 0;
  const renamed = (key: string): string | undefined => (Object.hasOwn(rename, key) ? rename[key] : undefined);
  // The last step of each renamed path: a key without a dot that ends none of them is never renamed, and its
  // dotted pattern is not written (most keys of most items; a key with a dot in it is looked up as before).
  const renamedSteps = new Set(Object.keys(rename).map((path) => path.slice(path.lastIndexOf(".") + 1)));
  const differs = (want: unknown, got: unknown) => void out.push({ path: steps.length === 0 ? "." : steps.join("."), want, got });
  const visit = (t: unknown, o: unknown) => {
    if (out.length >= limit) return;
    if (Array.isArray(t)) {
      if (!Array.isArray(o) || o.length !== t.length) return differs(`${t.length} items`, Array.isArray(o) ? `${o.length} items` : o);
      for (let i = 0; i < t.length; i++) {
        steps.push(i);
        if (renames) pattern.push("*");
        visit(t[i], o[i]);
        steps.pop();
        if (renames) pattern.pop();
      }
    } else if (isObject(t)) {
      if (!isObject(o)) return differs(t, o);
      for (const k in t) {
        if (!Object.hasOwn(t, k)) continue;
        const mine =
          renames && (renamedSteps.has(k) || k.includes(".")) ? (renamed(pattern.length === 0 ? k : `${pattern.join(".")}.${k}`) ?? renamed(k) ?? k) : k;
        steps.push(mine);
        if (renames) pattern.push(k);
        visit(t[k], getPath(o, mine));
        steps.pop();
        if (renames) pattern.pop();
      }
    } else if (!deepEqual(t, o)) differs(t, o);
  };
  visit(theirs, ours);
  return out;
}

function paramsOr(own: Record<string, unknown>, given: Json | undefined): Record<string, unknown> {
  return given === undefined ? own : isObject(given) ? (given as Record<string, unknown>) : {};
}

/** Every item of `method` for `params`: a cursor walk where the method is paginated, else the items of one answer. */
async function allItems(
  ctx: CheckContext,
  info: MethodInfo,
  params: Record<string, unknown>,
): Promise<{ items: unknown[]; problem: string | null; errorAnswer?: boolean }> {
  if (info.pagination) return walk(ctx, info.pagination, info, params, null, PAGES);
  const got = await answer(ctx, info.name, params);
  if ("problem" in got) return { items: [], problem: got.problem, errorAnswer: got.errorAnswer };
  const items = itemsOf(info, got.result);
  return items ? { items, problem: null } : { items: [], problem: `${info.name} answered no list of items` };
}

async function agrees(ctx: CheckContext, own: Record<string, unknown>, a: AgreesExpectation): Promise<Finding[]> {
  const ours = methodInfo(ctx.testCase.method, ctx.methods);
  const other = methodInfo(a.method, ctx.methods);
  if (!ours || !other) return [fail(S, `agrees: ${ours ? a.method : ctx.testCase.method} is not a method of the spec`)];
  if (a.walk && (!ours.pagination || !other.pagination)) return [fail(S, `agrees with ${a.method}: a walk needs two paginated methods`)];
  const params = paramsOr(own, a.params);
  const what = a.walk ? `the walks of ${a.method} and ${ours.name}` : `the case's answer and ${a.method}'s`;
  return atOneSlot(ctx, S, what, async (t): Promise<Judged | typeof CHANGED> => {
    let theirs: unknown;
    let mine: unknown;
    if (a.walk) {
      const [w, o] = [await allItems(t.ctx, other, params), await allItems(t.ctx, ours, own)];
      const bad = w.problem ? w : o.problem ? o : null;
      if (bad) return unanswered(fail(S, `agrees with ${a.method}: ${bad.problem}`), bad.errorAnswer);
      [theirs, mine] = [w.items, o.items];
    } else {
      const result = resultOf(await t.own());
      if (!result) return CHANGED;
      const got = await answer(t.ctx, a.method, params);
      if ("problem" in got) return unanswered(fail(S, `agrees: ${got.problem}`), got.errorAnswer);
      [theirs, mine] = [pageOf(other, got.result), pageOf(ours, result.result)];
      // What ours must hold is what the spec declares of theirs: a field it does not know (a newer deployment's) is the schema check's warning.
      const validateTheirs = ctx.validators[other.name]?.result;
      if (validateTheirs && unheldLeaves(theirs, mine, a.rename, 1).length > 0) theirs = pageOf(other, declared(validateTheirs, got.result).value);
    }
    const diff = unheldLeaves(theirs, mine, a.rename);
    if (diff.length === 0) return { each: [], across: [pass(S, `agrees with ${a.method}${a.walk ? " over a whole walk" : ""}`)] };
    const first = diff[0]!;
    const message = `differs from ${a.method} at ${diff.map((d) => d.path).join(", ")}${diff.length >= SHOWN ? ", …" : ""}`;
    return { each: [], across: [fail(S, message, show(first.want), show(first.got))] };
  });
}

function toBig(value: unknown): bigint | null {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  return null;
}

async function sum(ctx: CheckContext, own: Record<string, unknown>, s: SumExpectation): Promise<Finding[]> {
  const method = s.method ?? ctx.testCase.method;
  const info = methodInfo(method, ctx.methods);
  if (!info) return [fail(S, `sum: ${method} is not a method of the spec`)];
  const withResult = refersToResult(s.equals);
  return atOneSlot(ctx, S, `the sum of ${method}'s ${s.field}${withResult ? " and the case's answer" : ""}`, async (t): Promise<Judged | typeof CHANGED> => {
    let result: unknown;
    if (withResult) {
      const got = resultOf(await t.own());
      if (!got) return CHANGED;
      result = got.result;
    }
    const { items, problem, errorAnswer } = await allItems(t.ctx, info, paramsOr(own, s.params));
    if (problem) return unanswered(fail(S, `sum of ${method}'s ${s.field}: ${problem}`), errorAnswer);
    let total = 0n;
    for (const [i, item] of items.entries()) {
      const v = toBig(getPath(item, s.field));
      if (v === null)
        return { each: [fail(S, `sum: item ${i} of ${method} has no integer ${s.field}`, "an integer", show(getPath(item, s.field)))], across: [] };
      total += v;
    }
    const expected = resolveRefs(s.equals, { result }) as Json;
    const why = (expected as unknown) === ABSENT ? "has nothing to compare with (the result lacks the path)" : match(total, expected);
    const found =
      why === null
        ? pass(S, `the sum of ${s.field} over ${items.length} ${method} items as expected (${total})`)
        : fail(S, `the sum of ${method}'s ${s.field} over ${items.length} items ${why}`, show(expected), String(total));
    return { each: [], across: [found] };
  });
}

async function follow(ctx: CheckContext, f: FollowExpectation): Promise<Finding[]> {
  const info = methodInfo(ctx.testCase.method, ctx.methods);
  return atOneSlot(ctx, S, `${f.from} followed to ${f.method}`, async (t): Promise<Judged | typeof CHANGED> => {
    const got = resultOf(await t.own());
    if (!got) return CHANGED;
    const result = got.result;
    // A path into the page (`value` where the result has a context), else into the result.
    const inPage = info ? getPath(pageOf(info, result), f.from) : ABSENT;
    const list = inPage === ABSENT ? getPath(result, f.from) : inPage;
    if (list === ABSENT || list === null || list === undefined) return { each: [], across: [fail(S, `follow: nothing at ${f.from}`)] };
    const elements = Array.isArray(list) ? list.slice(0, f.max) : [list]; // a single value is followed once
    const each: Finding[] = [];
    const across: Finding[] = [];
    for (const [i, element] of elements.entries()) {
      const params = resolveRefs(f.params, { item: element });
      const answered = await answer(t.ctx, f.method, params);
      if ("problem" in answered) {
        (answered.errorAnswer ? across : each).push(fail(S, `follow ${f.from}[${i}]: ${answered.problem}`, "a result", show(params)));
        continue;
      }
      for (const [path, matcher] of Object.entries(f.result)) {
        const expected = resolveRefs(matcher, { item: element, result }) as Json;
        const actual = getPath(answered.result, path);
        const why = match(actual, expected);
        if (why !== null)
          across.push(fail(S, `follow ${f.from}[${i}] → ${f.method} ${show(params, 120)}: ${path || "result"} ${why}`, show(expected), show(actual)));
      }
    }
    const passed = each.length + across.length === 0 ? [pass(S, `${elements.length} ${f.method} follow-ups of ${f.from} as expected`)] : [];
    return { each: each.slice(0, SHOWN), across: [...across.slice(0, SHOWN), ...passed] };
  });
}

/** The findings of the case's cross-method expectations, in case order. */
export async function relationFindings(ctx: CheckContext, own: Record<string, unknown>): Promise<Finding[]> {
  const e = ctx.testCase.expect;
  const findings: Finding[] = [];
  for (const a of e.agrees ?? []) findings.push(...(await agrees(ctx, own, a)));
  if (e.sum) findings.push(...(await sum(ctx, own, e.sum)));
  for (const f of e.follow ?? []) findings.push(...(await follow(ctx, f)));
  return findings;
}
/** Whether a case carries cross-method expectations. */
export const hasRelations = (e: { agrees?: readonly unknown[]; sum?: unknown; follow?: readonly unknown[] }): boolean =>
  (e.agrees?.length ?? 0) > 0 || !!e.sum || (e.follow?.length ?? 0) > 0;
