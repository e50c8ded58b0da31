/**
 * semantics: what the answer means, beyond its shape. The case's own matchers
 * (`expect.result`, `expect.every`) and named rules (`expect.semantics`), each a function
 * of the case and its exchange, some making further calls to the target.
 */
import { ABSENT, getPath, match } from "../matchers.js";
import { fail, pass, type Finding } from "../model.js";
import { expectsResult, isObject, show, type Check, type CheckContext } from "./check.js";
import { walk } from "./pagination.js";

type Rule = (ctx: CheckContext, result: unknown, params: Record<string, unknown>) => Promise<Finding[]> | Finding[];

const S = "semantics";

/** getCompressedAccount: the account answered is the one asked for (address wins over hash). */
const lookup: Rule = (_ctx, result, params) => {
  const value = isObject(result) ? result.value : undefined;
  if (value === null) return [pass(S, "unknown account answered with null")];
  if (!isObject(value)) return [fail(S, "no account in value")];
  if (params.address != null) return value.address === params.address ? [pass(S, "the asked address")] : [fail(S, "not the asked address", show(params.address), show(value.address))];
  return value.hash === params.hash ? [pass(S, "the asked hash")] : [fail(S, "not the asked hash", show(params.hash), show(value.hash))];
};

/** getMultipleCompressedAccounts: one item per input, in input order, null for unknown ones. */
const inputOrder: Rule = (_ctx, result, params) => {
  const items = isObject(result) && isObject(result.value) ? result.value.items : undefined;
  const [field, inputs] = Array.isArray(params.hashes) ? ["hash", params.hashes] : ["address", params.addresses as unknown[]];
  if (!Array.isArray(items) || !Array.isArray(inputs)) return [fail(S, "no items or no inputs to compare")];
  if (items.length !== inputs.length) return [fail(S, "one item per input expected", String(inputs.length), String(items.length))];
  const bad = items.findIndex((item, i) => item !== null && (!isObject(item) || item[field] !== inputs[i]));
  if (bad >= 0) return [fail(S, `item ${bad} does not answer input ${bad}`, show(inputs[bad]), show(isObject(items[bad]) ? items[bad][field] : items[bad]))];
  return [pass(S, `${items.length} items in input order`)];
};

/** Every item of a paginated method, each kept as `keep` reduces it (a walk holds only what the rule compares). */
async function walkAll<T>(ctx: CheckContext, method: string, params: Record<string, unknown>, keep: (item: unknown) => T): Promise<{ items: T[]; problem: string | null }> {
  const info = ctx.methods[method];
  if (!info?.pagination) return { items: [], problem: `${method} is not a paginated method of the spec` };
  return walk(ctx, info.pagination, info, params, null, 1000, keep);
}

/** Two fields of an item, nothing else of it. */
const pick = (mintPath: string, amountPath: string) => (item: unknown) => ({ mint: getPath(item, mintPath), amount: getPath(item, amountPath) });

/** getCompressedTokenBalancesByOwner: each balance is the sum of the owner's token amounts for that mint. */
const balancesSum: Rule = async (ctx, _result, params) => {
  const owner = params.owner;
  const balances = await walkAll(ctx, "getCompressedTokenBalancesByOwner", { owner }, pick("mint", "balance"));
  const accounts = await walkAll(ctx, "getCompressedTokenAccountsByOwner", { owner }, pick("tokenData.mint", "tokenData.amount"));
  const problem = balances.problem ?? accounts.problem;
  if (problem) return [fail(S, `cannot compare balances with token accounts: ${problem}`)];
  const sums = new Map<string, bigint>();
  for (const a of accounts.items) {
    const mint = String(a.mint);
    sums.set(mint, (sums.get(mint) ?? 0n) + BigInt(a.amount as number | bigint));
  }
  const findings: Finding[] = [];
  for (const b of balances.items) {
    const mint = String(b.mint);
    const want = sums.get(mint) ?? 0n;
    const got = BigInt(b.amount as number | bigint);
    if (got !== want) findings.push(fail(S, `balance of mint ${mint} is not the sum of the owner's token amounts`, String(want), String(got)));
    sums.delete(mint);
  }
  for (const [mint, sum] of sums) if (sum > 0n) findings.push(fail(S, `mint ${mint} has token accounts but no balance row`, String(sum), "absent"));
  return findings.length > 0 ? findings : [pass(S, `${balances.items.length} balances equal the sums of ${accounts.items.length} token accounts`)];
};

/** context.slot never exceeds a getIndexerSlot read after it. */
const slotNotAhead: Rule = async (ctx, result) => {
  const slot = getPath(result, "context.slot");
  if (slot === ABSENT) return [fail(S, "no context.slot")];
  const after = await ctx.target.call("getIndexerSlot", undefined);
  const indexed = isObject(after.body) ? after.body.result : undefined;
  if (typeof indexed !== "number" && typeof indexed !== "bigint") return [fail(S, `getIndexerSlot did not answer: ${after.error ?? show(after.body)}`)];
  return BigInt(slot as number | bigint) <= BigInt(indexed)
    ? [pass(S, `context.slot ${slot} <= indexer slot ${indexed}`)]
    : [fail(S, "context.slot is ahead of getIndexerSlot read after it", `<= ${indexed}`, String(slot))];
};

export const rules: Readonly<Record<string, Rule>> = {
  lookup,
  "input-order": inputOrder,
  "balances-sum": balancesSum,
  "slot-not-ahead": slotNotAhead,
};

function pageItems(ctx: CheckContext, result: unknown): unknown[] | null {
  const info = ctx.methods[ctx.testCase.method];
  const page = info?.hasContext ? getPath(result, "value") : result;
  const field = info?.pagination?.items ?? "items";
  const items = getPath(page, field);
  return Array.isArray(items) ? items : null;
}

export const semanticsCheck: Check = {
  name: S,
  applies: (c) => expectsResult(c) && (c.expect.result !== null || c.expect.every !== null || c.expect.semantics.length > 0),
  async run(ctx) {
    const body = ctx.exchange.body;
    if (!isObject(body) || !("result" in body)) return [];
    const result = body.result;
    const params = isObject(ctx.testCase.params) ? (ctx.testCase.params as Record<string, unknown>) : {};
    const findings: Finding[] = [];
    for (const [path, matcher] of Object.entries(ctx.testCase.expect.result ?? {})) {
      const actual = getPath(result, path);
      const why = match(actual, matcher);
      const where = path === "" || path === "." ? "result" : `result.${path}`;
      findings.push(why === null ? pass(S, `${where} as expected`) : fail(S, `${where} ${why}`, show(matcher), show(actual)));
    }
    if (ctx.testCase.expect.every) {
      const items = pageItems(ctx, result);
      if (!items) findings.push(fail(S, "no list of items to check"));
      else {
        for (const [path, matcher] of Object.entries(ctx.testCase.expect.every)) {
          const bad = items.findIndex((item) => match(getPath(item, path), matcher) !== null);
          findings.push(
            bad < 0
              ? pass(S, `every item's ${path} as expected (${items.length} items)`)
              : fail(S, `item ${bad}: ${path} ${match(getPath(items[bad], path), matcher)}`, show(matcher), show(getPath(items[bad], path))),
          );
        }
      }
    }
    for (const name of ctx.testCase.expect.semantics) {
      const rule = rules[name];
      findings.push(...(rule ? await rule(ctx, result, params) : [fail(S, `unknown semantic rule ${name}`)]));
    }
    return findings;
  },
};

