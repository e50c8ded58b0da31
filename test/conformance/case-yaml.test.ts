/**
 * Case files are read with js-yaml under the YAML 1.2 core schema (conformance/case-yaml.ts):
 * the same values the `yaml` package gave (every bundled case file is compared, `!repeat` expanded
 * on both sides), integers past 2^53 as bigints, and hostile text refused with a CaseError rather
 * than expanded or obeyed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type CollectionTag, isMap, parse, YAMLSeq } from "yaml";
import { describe, expect, it } from "vitest";
import { narrow } from "../../conformance/case-format.js";
import { MAX_DEPTH, MAX_VALUES, parseCaseYaml } from "../../conformance/case-yaml.js";
import { CaseError } from "../../conformance/errors.js";
import { root } from "../helpers/paths.js";

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** `!repeat {count, item}` for the `yaml` package: the list of `count` items, as the loader reads it. */
const repeatTag: CollectionTag = {
  tag: "!repeat",
  collection: "map",
  resolve(map) {
    const list = new YAMLSeq();
    if (isMap(map)) for (let i = 0; i < Number(map.get("count")); i++) list.items.push(map.get("item", true));
    return list;
  },
};

function refusal(text: string): CaseError {
  try {
    parseCaseYaml("c.yaml", text);
  } catch (err) {
    expect(err).toBeInstanceOf(CaseError);
    return err as CaseError;
  }
  throw new Error("parseCaseYaml accepted the text");
}

describe("parseCaseYaml", () => {
  it("reads every bundled case file as the yaml package (1.2 core, bigint integers) did", () => {
    const files = yamlFiles(join(root, "conformance/cases"));
    expect(files.length).toBeGreaterThan(500);
    let repeats = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      if (text.includes("!repeat")) repeats++;
      expect(parseCaseYaml(file, text), file).toStrictEqual(narrow(parse(text, { intAsBigInt: true, uniqueKeys: true, customTags: [repeatTag] })));
    }
    expect(repeats).toBeGreaterThan(0);
  });

  it("reads `!repeat {count, item}` as a list of count copies of item, each its own value", () => {
    const value = parseCaseYaml("c.yaml", 'a: !repeat {count: 3, item: {address: "{{x}}", n: 18446744073709551615}}\nb: !repeat {count: 0, item: 1}\n') as {
      a: Record<string, unknown>[];
      b: unknown[];
    };
    expect(value).toStrictEqual({ a: Array(3).fill({ address: "{{x}}", n: 18446744073709551615n }), b: [] });
    expect(value.a[0]).not.toBe(value.a[1]);
  });

  it("refuses a `!repeat` without an integer count from 0 to MAX_VALUES and an item, naming line and column", () => {
    for (const bad of [
      "{count: 3}",
      "{item: 1}",
      "{count: -1, item: 1}",
      "{count: 1.5, item: 1}",
      `{count: ${MAX_VALUES + 1}, item: 1}`,
      "{count: 2, item: 1, more: 1}",
      "[1, 2]",
      "x",
    ]) {
      expect(refusal(`a: !repeat ${bad}\n`).message, bad).toMatch(
        new RegExp(`^c\\.yaml: invalid YAML: \`!repeat\` takes \\{count: an integer from 0 to ${MAX_VALUES}, item: a value\\} at line 1, column \\d+$`),
      );
    }
  });

  it("counts each repeated value against MAX_VALUES, aliased repeats too", () => {
    expect(refusal(`a: !repeat {count: ${MAX_VALUES}, item: [1]}\n`).message).toBe(
      `c.yaml: more than ${MAX_VALUES} values once its aliases and repeats are expanded`,
    );
    expect(refusal(`a: &r !repeat {count: 150000, item: 1}\nb: *r\n`).message).toBe(
      `c.yaml: more than ${MAX_VALUES} values once its aliases and repeats are expanded`,
    );
  });

  it("keeps integers past 2^53 exact and small ones as numbers", () => {
    expect(parseCaseYaml("c.yaml", "a: 18446744073709551615\nb: -9007199254740993\nc: 42\nd: 0x1F\ne: 0o17\nf: +7")).toStrictEqual({
      a: 18446744073709551615n,
      b: -9007199254740993n,
      c: 42,
      d: 31,
      e: 15,
      f: 7,
    });
  });

  it("follows the 1.2 core schema: no timestamps, no underscores, no yes/no booleans, no merge keys", () => {
    expect(parseCaseYaml("c.yaml", "t: 2024-01-02\nu: 1_000\nv: yes\nw: 1.5e3\nx: .inf\ny: ~\nz: False")).toStrictEqual({
      t: "2024-01-02",
      u: "1_000",
      v: "yes",
      w: 1500,
      x: Number.POSITIVE_INFINITY,
      y: null,
      z: false,
    });
    expect(parseCaseYaml("c.yaml", "base: &b {k: 1}\nm:\n  <<: *b\n")).toStrictEqual({ base: { k: 1 }, m: { "<<": { k: 1 } } });
  });

  it("keeps a __proto__ key as an own property and leaves prototypes alone", () => {
    const value = parseCaseYaml("c.yaml", "__proto__:\n  polluted: true\n") as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses duplicate keys, custom tags and several documents, naming file, line and column", () => {
    expect(refusal("a: 1\na: 2\n").message).toMatch(/^c\.yaml: invalid YAML: duplicated mapping key at line 2, column 1$/);
    expect(refusal("a: !!js/function 'function(){}'\n").message).toMatch(/^c\.yaml: invalid YAML: unknown tag/);
    expect(refusal("a: 1\n---\nb: 2\n").message).toMatch(/^c\.yaml: invalid YAML: expected a single document/);
    expect(refusal("a: [1, 2\n").message).toMatch(/^c\.yaml: invalid YAML: .* at line \d+, column \d+$/);
  });

  it("refuses an alias bomb instead of expanding it", () => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    expect(refusal(lines.join("\n")).message).toBe(`c.yaml: more than ${MAX_VALUES} values once its aliases and repeats are expanded`);
  });

  it("refuses aliases stacked deeper than the nesting cap instead of recursing past the stack", () => {
    const lines = ["a0: &a0 [x]"];
    for (let i = 1; i < 20_000; i++) lines.push(`a${i}: &a${i} [*a${i - 1}]`);
    expect(refusal(lines.join("\n")).message).toBe(`c.yaml: nested more than ${MAX_DEPTH} levels once its aliases and repeats are expanded`);
    expect(refusal(`a: ${"[".repeat(5000)}${"]".repeat(5000)}`).message).toMatch(/^c\.yaml: invalid YAML: nesting exceeded maxDepth/);
  });

  it("reads a file without a document as no value (which parseCase then refuses: a case is a mapping)", () => {
    expect(parseCaseYaml("c.yaml", "")).toBeUndefined();
    expect(parseCaseYaml("c.yaml", "# only a comment\n")).toBeNull();
  });
});
