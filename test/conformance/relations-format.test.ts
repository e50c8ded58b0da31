/** The matchers `some`, `has`, `min`, the relation helpers and the case format of `agrees`, `sum`, `follow`. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CaseError, parseCase } from "../../conformance/case-format.js";
import { unheldLeaves, resolveRefs } from "../../conformance/checks/relations.js";
import { ABSENT, deepEqual, getPath, match } from "../../conformance/matchers.js";
import { isObject, parseJson, type Json } from "../../runtime/index.js";

describe("matchers some, has and min", () => {
  const tx = { openedAccounts: [{ account: { hash: "A" } }], closedAccounts: [{ account: { hash: "B" } }] };
  const mentions = (h: string): Json => ({
    oneOf: [{ has: { openedAccounts: { some: { "account.hash": h } } } }, { has: { closedAccounts: { some: { "account.hash": h } } } }],
  });

  it("some: an array with at least one element matching every path", () => {
    expect(match([{ a: 1, b: 2 }, { a: 3 }], { some: { a: 3 } })).toBeNull();
    expect(match([{ a: 1, b: 2 }, { a: 3 }], { some: { a: 1, b: 2 } })).toBeNull();
    expect(
      match(
        [
          { a: 1, b: 2 },
          { a: 3, b: 4 },
        ],
        { some: { a: 1, b: 4 } },
      ),
    ).toBe("has no element matching a, b");
    expect(match([], { some: { a: 1 } })).toMatch(/no element/);
    expect(match({ a: 1 }, { some: { a: 1 } })).toBe("is not an array");
  });

  it("has: an object whose paths all match, naming the first that does not", () => {
    expect(match({ a: { b: 1 }, c: 2 }, { has: { "a.b": 1, c: { type: "number" } } })).toBeNull();
    expect(match({ a: { b: 1 } }, { has: { "a.b": 2 } })).toBe("a.b differs");
    expect(match({ a: 1 }, { has: { z: { any: true } } })).toBe("z is absent");
    expect(match([1], { has: { 0: 1 } })).toBe("is not an object");
  });

  it("compose: opened OR closed mentions an account", () => {
    expect(match(tx, mentions("A"))).toBeNull();
    expect(match(tx, mentions("B"))).toBeNull();
    expect(match(tx, mentions("C"))).toBe("matches none of the options");
    expect(match({ ...tx, closedAccounts: [] }, mentions("B"))).toBe("matches none of the options");
  });

  it("min: numbers and bigints at least n", () => {
    expect(match(5, { min: 1 })).toBeNull();
    expect(match(2n ** 64n - 1n, { min: 2 ** 53 })).toBeNull();
    expect(match(0, { min: 1 })).toBe("is not a number >= 1");
    expect(match("5", { min: 1 })).toMatch(/is not a number/);
  });
});

describe("relation helpers", () => {
  it("resolveRefs fills {item: path} and {result: path}, deep, and leaves other objects alone", () => {
    const refs = { item: { account: { hash: "H" } }, result: { value: 7 } };
    expect(resolveRefs({ hash: { item: "account.hash" }, n: [{ result: "value" }], m: { item: 1 } }, refs)).toEqual({ hash: "H", n: [7], m: { item: 1 } });
    expect(resolveRefs({ item: "missing" }, refs)).toBe(ABSENT);
    expect(match("H", resolveRefs({ oneOf: [{ item: "account.hash" }, null] }, refs)!)).toBeNull();
  });

  it("resolveRefs never puts an answer's value into a `matches` pattern, and a pattern that is not text matches nothing", () => {
    const hostile = "^(a+)+$";
    const refs = { item: { p: hostile }, result: { p: hostile } };
    const matcher = { matches: { item: "p" } };
    expect(resolveRefs({ a: matcher, b: { not: { matches: { result: "p" } } } }, refs)).toEqual({ a: matcher, b: { not: { matches: { result: "p" } } } });
    expect(match(`${"a".repeat(40)}!`, matcher)).toBe("cannot be matched: the pattern is not text");
    expect(match("H", { matches: "^H$" })).toBeNull();
  });

  it("unheldLeaves: every leaf of theirs at the same or renamed path of ours, arrays by length and item", () => {
    const v1 = { items: [{ hash: "a", tree: "t", leafIndex: 1 }], cursor: null };
    const v2 = { items: [{ hash: "a", merkleContext: { tree: "t" }, leafIndex: 1, proveByIndex: false }], cursor: null };
    expect(unheldLeaves(v1, v2, { tree: "merkleContext.tree" })).toEqual([]);
    expect(unheldLeaves(v1, v2, {}).map((d) => d.path)).toEqual(["items.0.tree"]);
    const off = { ...v2, items: [{ ...v2.items[0]!, leafIndex: 2 }] };
    expect(unheldLeaves(v1, off, { tree: "merkleContext.tree" })).toEqual([{ path: "items.0.leafIndex", want: 1, got: 2 }]);
    expect(unheldLeaves(v1, { items: [], cursor: null }, {})).toEqual([{ path: "items", want: "1 items", got: "0 items" }]);
    expect(unheldLeaves(null, null, {})).toEqual([]);
    expect(unheldLeaves(5n, 5, {})).toEqual([]);
  });

  it("unheldLeaves: a rename by path applies only there; at most `limit` paths", () => {
    const v1 = { closed: [{ account: { hash: "h" } }], opened: [{ account: { hash: "o" } }] };
    const v2 = { closed: [{ account: { account: { hash: "h" } } }], opened: [{ account: { hash: "o" } }] };
    expect(unheldLeaves(v1, v2, { "closed.*.account": "account.account" })).toEqual([]);
    expect(unheldLeaves({ a: 1, b: 2, c: 3, d: 4 }, {}, {}, 2).length).toBe(2);
  });

  it("unheldLeaves: a key named like an Object.prototype member is never renamed by it, and paths name the renamed steps", () => {
    const answer = parseJson('{"constructor":1,"toString":{"x":2},"items":[{"tree":"t"}]}');
    expect(unheldLeaves(answer, answer, { unrelated: "other" })).toEqual([]);
    const ours = parseJson('{"constructor":1,"toString":{"x":2},"items":[{"merkleContext":{"tree":"u"}}]}');
    expect(unheldLeaves(answer, ours, { "items.*.tree": "merkleContext.tree" })).toEqual([{ path: "items.0.merkleContext.tree", want: "t", got: "u" }]);
  });
});

const parse = (expect: string) => parseCase("x/y", "cases/x/y.yaml", `method: m\nparams: {owner: "{{o}}"}\nexpect:\n${expect}`, { o: "OWNER", s: 5 });

describe("case format: agrees, sum, follow", () => {
  it("reads them, filling placeholders and defaults", () => {
    const c = parse(
      [
        "  agrees:",
        "    - method: other",
        "      rename: {tree: merkleContext.tree}",
        "    - {method: third, params: {owner: '{{o}}'}, walk: true}",
        "  sum: {field: balance, equals: '{{s}}'}",
        "  follow:",
        "    - {from: items, method: f, params: {hash: {item: hash}}, result: {value: {item: lamports}}}",
      ].join("\n"),
    );
    expect(c.expect.agrees).toEqual([
      { method: "other", params: undefined, rename: { tree: "merkleContext.tree" }, walk: false },
      { method: "third", params: { owner: "OWNER" }, rename: {}, walk: true },
    ]);
    expect(c.expect.sum).toEqual({ method: null, params: undefined, field: "balance", equals: 5 });
    expect(c.expect.follow).toEqual([{ from: "items", max: 10, method: "f", params: { hash: { item: "hash" } }, result: { value: { item: "lamports" } } }]);
  });

  it.each([
    ["  agrees: {method: x}", "`expect.agrees` must be a list"],
    ["  agrees: [{params: {}}]", "`expect.agrees[0].method` must be a name or dotted path"],
    ["  agrees: [{method: x, extra: 1}]", "unknown key `expect.agrees[0].extra`"],
    ["  agrees: [{method: x, rename: {tree: 1}}]", "`expect.agrees[0].rename.tree` must be a name or dotted path"],
    ["  agrees: [{method: x, walk: yes}]", "`expect.agrees[0].walk` must be true or false"],
    ["  sum: [1]", "`expect.sum` must be a mapping"],
    ["  sum: {field: lamports}", "`expect.sum.equals` is required (a matcher, or {result: path})"],
    ["  sum: {equals: 1}", "`expect.sum.field` must be a name or dotted path"],
    ["  follow: [{from: items, method: f}]", "`expect.follow[0].result` must map paths to matchers"],
    ["  follow: [{from: items, method: f, result: {a: 1}, max: 51}]", "`expect.follow[0].max` must be an integer from 1 to 50"],
    ["  follow: [{from: items, method: f, result: {a: 1}, max: 0}]", "`expect.follow[0].max` must be an integer from 1 to 50"],
    ["  follow: [{method: f, result: {a: 1}}]", "`expect.follow[0].from` must be a name or dotted path"],
    // A pattern is the case's own text: one taken from an answer would let the target pick a regex that backtracks for minutes.
    [
      "  follow: [{from: items, method: f, result: {a: {matches: {item: hash}}}}]",
      "`expect.follow[0].result.a`: a `matches` pattern must be a regular expression written as text (a pattern is never taken from an answer)",
    ],
    ["  result: {value: {matches: {result: value}}}", "`expect.result.value`: a `matches` pattern must be a regular expression written as text"],
    ["  result: {value: {not: {matches: 5}}}", "`expect.result.value.not`: a `matches` pattern must be a regular expression written as text"],
    [
      '  result: {value: {matches: "("}}',
      "`expect.result.value`: a `matches` pattern cannot be used: not a valid regular expression for RE2: missing closing )",
    ],
    [
      '  error: {code: -32000, messageMatches: "("}',
      "`expect.error.messageMatches`: a pattern cannot be used: not a valid regular expression for RE2: missing closing )",
    ],
    ["  follow: [{from: items, method: f, result: {a: 1}, with: 1}]", "unknown key `expect.follow[0].with`"],
  ])("%s is a CaseError naming the file and key", (yaml, message) => {
    const err = (() => {
      try {
        parse(yaml);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CaseError);
    expect((err as Error).message).toContain("cases/x/y.yaml");
    expect((err as Error).message).toContain(message);
  });
});

describe("follow-up calls per case, not only per entry (100 entries of 50 sent 5,002 calls)", () => {
  const entries = (n: number, max?: number) =>
    `  follow:\n${`    - {from: items, method: f, result: {a: 1}${max === undefined ? "" : `, max: ${max}`}}\n`.repeat(n)}`;

  it("entries whose `max` add up to the per-case cap are read", () => {
    expect(parse(entries(2, 50)).expect.follow!.map((f) => f.max)).toEqual([50, 50]);
  });

  it.each([
    { n: 100, max: 50, label: "50", sum: 5000 },
    { n: 11, max: undefined, label: "10 (the default)", sum: 110 },
  ])("$n entries of max $label are refused at load, naming the file and the sum", ({ n, max, sum }) => {
    expect(() => parse(entries(n, max))).toThrow(CaseError);
    expect(() => parse(entries(n, max))).toThrow(
      `cases/x/y.yaml: \`expect.follow\`: at most 100 follow-up calls per case, but its entries' \`max\` (10 where not given) add up to ${sum}`,
    );
  });
});

describe("unheldLeaves renames as it always did", () => {
  /** The rename lookup spelled out: the dotted pattern (indexes as `*`) first, then the bare key, else the key itself. */
  function reference(theirs: unknown, ours: unknown, rename: Record<string, string>): { path: string; want: unknown; got: unknown }[] {
    const out: { path: string; want: unknown; got: unknown }[] = [];
    const renamed = (key: string) => (Object.hasOwn(rename, key) ? rename[key] : undefined);
    const at = (steps: (string | number)[]) => (steps.length === 0 ? "." : steps.join("."));
    const visit = (t: unknown, o: unknown, steps: (string | number)[], pattern: string[]) => {
      if (Array.isArray(t)) {
        if (!Array.isArray(o) || o.length !== t.length)
          return void out.push({ path: at(steps), want: `${t.length} items`, got: Array.isArray(o) ? `${o.length} items` : o });
        t.forEach((x, i) => visit(x, o[i], [...steps, i], [...pattern, "*"]));
      } else if (isObject(t)) {
        if (!isObject(o)) return void out.push({ path: at(steps), want: t, got: o });
        for (const k of Object.keys(t)) {
          const mine = renamed([...pattern, k].join(".")) ?? renamed(k) ?? k;
          visit(t[k], getPath(o, mine), [...steps, mine], [...pattern, k]);
        }
      } else if (!deepEqual(t, o)) out.push({ path: at(steps), want: t, got: o });
    };
    visit(theirs, ours, [], []);
    return out;
  }

  it("on generated values and renames, keys with dots among them", () => {
    const key = fc.constantFrom("a", "b", "a.b", "c", "b.c", "");
    const leaf = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom("x", "y"));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 2 }), fc.dictionary(key, tie("node"), { maxKeys: 3 })),
    })).node;
    const path = fc.array(fc.constantFrom("a", "b", "*", "c", "a.b"), { minLength: 1, maxLength: 3 }).map((steps) => steps.join("."));
    fc.assert(
      fc.property(value, value, fc.dictionary(path, path, { maxKeys: 3 }), (theirs, ours, rename) => {
        expect(unheldLeaves(theirs, ours, rename, 1_000)).toEqual(reference(theirs, ours, rename));
      }),
      { seed: 20261124, numRuns: 3_000 },
    );
  });
});
