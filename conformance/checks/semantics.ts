/**
 * semantics: what the answer means, beyond its shape. The case's own matchers
 * (`expect.result`, `expect.every`) and named rules (`expect.semantics`), each a function
 * of the case and its exchange, some making further calls to the target; and its cross-method
 * expectations (`expect.agrees`, `expect.sum`, `expect.follow`: relations.ts).
 */
import { isObject, type Json } from "@photon-indexer-kit/runtime";
import { ABSENT, getPath, holds, match, matcherName } from "../matchers.js";
import { fail, pass, type Finding } from "../results.js";
import { atOneSlot, unanswered } from "../same-slot.js";
import { expectsResult, show, type Check, type CheckContext } from "./check.js";
import { hasRelations, relationFindings } from "./relations.js";
import { walk, type Walk } from "./walk.js";
import { itemsOf, lookupKeyOf, methodInfo, slotMethod, slotOfResult } from "../spec-facts.js";

type Rule = (ctx: CheckContext, result: unknown, params: Record<string, unknown>) => Promise<Finding[]> | Finding[];

const S = "semantics";

/** `x-lookup` without items: the item answered is the one asked for, by the first key given (address wins over hash). */
const lookup: Rule = (ctx, result, params) => {
  const info = methodInfo(ctx.testCase.method, ctx.methods);
  if (!info?.lookup || info.lookup.items !== null) return [fail(S, `${ctx.testCase.method} is not a single lookup of the spec (x-lookup)`)];
  const value = isObject(result) ? result.value : undefined;
  if (value === null) return [pass(S, "unknown item answered with null")];
  if (!isObject(value)) return [fail(S, "no item in value")];
  const key = lookupKeyOf(info, params) ?? info.lookup.by[info.lookup.by.length - 1]!;
  const got = getPath(value, key.field);
  return got === params[key.param]
    ? [pass(S, `the asked ${key.field}`)]
    : [fail(S, `not the asked ${key.field}`, show(params[key.param]), show(got === ABSENT ? undefined : got))];
};

/** `x-lookup` with items: one item per input, in input order, null for unknown ones. */
const inputOrder: Rule = (ctx, result, params) => {
  const info = methodInfo(ctx.testCase.method, ctx.methods);
  if (!info?.lookup || info.lookup.items === null) return [fail(S, `${ctx.testCase.method} is not a list lookup of the spec (x-lookup)`)];
  const items = itemsOf(info, result);
  const key = info.lookup.by.find((k) => Array.isArray(params[k.param])) ?? info.lookup.by[info.lookup.by.length - 1]!;
  const inputs = params[key.param];
  if (!Array.isArray(items) || !Array.isArray(inputs)) return [fail(S, "no items or no inputs to compare")];
  if (items.length !== inputs.length) return [fail(S, "one item per input expected", String(inputs.length), String(items.length))];
  const bad = items.findIndex((item, i) => item !== null && (!isObject(item) || getPath(item, key.field) !== inputs[i]));
  if (bad >= 0)
    return [fail(S, `item ${bad} does not answer input ${bad}`, show(inputs[bad]), show(isObject(items[bad]) ? getPath(items[bad], key.field) : items[bad]))];
  return [pass(S, `${items.length} items in input order`)];
};

/** Every item of a paginated method, each kept as `keep` reduces it (a walk holds only what the rule compares). */
async function walkAll<T>(ctx: CheckContext, method: string, params: Record<string, unknown>, keep: (item: unknown) => T): Promise<Walk<T>> {
  const info = methodInfo(method, ctx.methods);
  if (!info?.pagination) return { items: [], pages: 0, problem: `${method} is not a paginated method of the spec` };
  return walk(ctx, info.pagination, info, params, null, 1000, keep);
}

/** Two fields of an item, nothing else of it. */
const pick = (keyPath: string, sumPath: string) => (item: unknown) => ({ key: getPath(item, keyPath), sum: getPath(item, sumPath) });

/**
 * `x-sums`: each item's total is the sum of the other method's amounts in its group (the same
 * params), and no group with a sum lacks a row; both walks are one relation, judged at one slot.
 */
const sums: Rule = (ctx, _result, params) => {
  const method = ctx.testCase.method;
  const info = methodInfo(method, ctx.methods);
  if (!info?.sums) return [fail(S, `${method} states no sums in the spec (x-sums)`)];
  const { key, sum } = info.sums;
  const other = info.sums.method;
  const shared = Object.fromEntries(info.sums.params.map((p) => [p, params[p]]));
  return atOneSlot(ctx, S, `the walks of ${method} and ${other}`, async (t) => {
    const totals = await walkAll(t.ctx, method, shared, pick(key.field, sum.field));
    const parts = await walkAll(t.ctx, other, shared, pick(key.of, sum.of));
    const bad = totals.problem ? totals : parts.problem ? parts : null;
    if (bad) return unanswered(fail(S, `cannot compare ${sum.field} with ${other}: ${bad.problem}`), bad.errorAnswer);
    const sumsOf = new Map<string, bigint>();
    for (const a of parts.items) {
      const group = String(a.key);
      sumsOf.set(group, (sumsOf.get(group) ?? 0n) + BigInt(a.sum as number | bigint));
    }
    const findings: Finding[] = [];
    for (const b of totals.items) {
      const group = String(b.key);
      const want = sumsOf.get(group) ?? 0n;
      const got = BigInt(b.sum as number | bigint);
      if (got !== want) findings.push(fail(S, `${sum.field} of ${key.field} ${group} is not the sum of ${other}'s ${sum.of}`, String(want), String(got)));
      sumsOf.delete(group);
    }
    for (const [group, total] of sumsOf) if (total > 0n) findings.push(fail(S, `${key.field} ${group} has ${other} items but no row`, String(total), "absent"));
    if (findings.length === 0) findings.push(pass(S, `${totals.items.length} ${sum.field}s equal the sums of ${parts.items.length} ${other} items`));
    return { each: [], across: findings };
  });
};

/** The slot a result states never exceeds the slot method's answer read after it. */
const slotNotAhead: Rule = async (ctx, result) => {
  const info = methodInfo(ctx.testCase.method, ctx.methods);
  const source = slotMethod(ctx.methods);
  const slot = slotOfResult(info, result);
  if (slot === undefined) return [fail(S, `no ${info?.slot || "slot"}`)];
  if (!source) return [fail(S, "the spec has no method answering the slot (x-slot)")];
  const after = await ctx.target.call(source.name, undefined);
  const indexed = isObject(after.body) ? after.body.result : undefined;
  if (typeof indexed !== "number" && typeof indexed !== "bigint") return [fail(S, `${source.name} did not answer: ${after.error ?? show(after.body)}`)];
  return BigInt(slot as number | bigint) <= BigInt(indexed)
    ? [pass(S, `${info!.slot || "slot"} ${slot} <= indexer slot ${indexed}`)]
    : [fail(S, `${info!.slot || "slot"} is ahead of ${source.name} read after it`, `<= ${indexed}`, String(slot))];
};

export const rules: Readonly<Record<string, Rule>> = {
  lookup,
  "input-order": inputOrder,
  "balances-sum": sums,
  "slot-not-ahead": slotNotAhead,
};

/** `match`, where a literal compares the fields it names (`holds`): what an answer adds is the schema check's to judge. */
function matchLiteral(actual: unknown, matcher: Json): string | null {
  const why = match(actual, matcher);
  return why !== null && actual !== ABSENT && matcherName(matcher) === undefined && holds(actual, matcher) ? null : why;
}

export const semanticsCheck: Check = {
  name: S,
  applies: (c) => expectsResult(c) && (c.expect.result !== null || c.expect.every !== null || c.expect.semantics.length > 0 || hasRelations(c.expect)),
  async run(ctx) {
    const body = ctx.exchange.body;
    if (!isObject(body) || !("result" in body)) return [];
    const result = body.result;
    const params = isObject(ctx.testCase.params) ? (ctx.testCase.params as Record<string, unknown>) : {};
    const findings: Finding[] = [];
    const info = methodInfo(ctx.testCase.method, ctx.methods);
    for (const [path, matcher] of Object.entries(ctx.testCase.expect.result ?? {})) {
      const actual = getPath(result, path);
      const why = matchLiteral(actual, matcher);
      const where = path === "" || path === "." ? "result" : `result.${path}`;
      findings.push(why === null ? pass(S, `${where} as expected`) : fail(S, `${where} ${why}`, show(matcher), show(actual)));
    }
    if (ctx.testCase.expect.every) {
      const items = itemsOf(info, result);
      if (!items) findings.push(fail(S, "no list of items to check"));
      else {
        for (const [path, matcher] of Object.entries(ctx.testCase.expect.every)) {
          const bad = items.findIndex((item) => matchLiteral(getPath(item, path), matcher) !== null);
          findings.push(
            bad < 0
              ? pass(S, `every item's ${path} as expected (${items.length} items)`)
              : fail(S, `item ${bad}: ${path} ${matchLiteral(getPath(items[bad], path), matcher)}`, show(matcher), show(getPath(items[bad], path))),
          );
        }
      }
    }
    for (const name of ctx.testCase.expect.semantics) {
      const rule = rules[name];
      // One at a time, never spread as arguments: a rule's list grows with the target's items (a sum's, one per group).
      for (const f of rule ? await rule(ctx, result, params) : [fail(S, `unknown semantic rule ${name}`)]) findings.push(f);
    }
    findings.push(...(await relationFindings(ctx, params)));
    return findings;
  },
};
