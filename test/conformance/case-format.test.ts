/**
 * Reading a cases directory: every file named `*.yaml`/`*.yml` under it, in a stable order; a
 * file that cannot be read is a CaseError naming it (the run exits 2); FIFOs are in
 * case-format.e2e.test.ts (mkfifo). Placeholders are filled once per load.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCases } from "../../conformance/case-format.js";
import { errorsCheck } from "../../conformance/checks/errors.js";
import { match } from "../../conformance/matchers.js";
import type { Exchange } from "../../conformance/results.js";
import type { Json } from "../../runtime/index.js";
import { CASE, refusal, useCasesDirs } from "./support/case-dirs.js";

const casesDir = useCasesDirs();

describe("loadCases", () => {
  it("reads nested case files in path order, ids relative to the directory", async () => {
    const root = casesDir();
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "b", "two.yml"), CASE);
    writeFileSync(join(root, "a.yaml"), CASE);
    writeFileSync(join(root, "notes.txt"), "not a case");
    const cases = await loadCases(root, {});
    expect(cases.map((c) => c.id)).toEqual(["a", "b/two"]);
    expect(cases.every((c) => c.method === "getIndexerSlot")).toBe(true);
  });

  it("fills placeholders from the profile's own entries only: a prototype member's name is a missing fixture", async () => {
    const root = casesDir();
    for (const name of ["constructor", "toString", "__proto__", "list.length"]) {
      writeFileSync(join(root, `${name.replace(".", "-")}.yaml`), `method: getCompressedAccount\nparams:\n  hash: "{{${name}}}"\n`);
    }
    writeFileSync(join(root, "listed.yaml"), 'method: getCompressedAccount\nparams:\n  hash: "{{list.1}}"\n');
    const cases = await loadCases(root, { list: ["a", "b"] });
    const byId = new Map(cases.map((c) => [c.id, c]));
    for (const id of ["constructor", "toString", "__proto__", "list-length"]) expect(byId.get(id)!.skip, id).toMatch(/^needs fixture `/);
    expect(byId.get("listed")!.skip).toBeNull();
    expect(byId.get("listed")!.params).toEqual({ hash: "b" });
  });

  it.skipIf(process.getuid?.() === 0)("names an unreadable case file and why", async () => {
    const root = casesDir();
    writeFileSync(join(root, "locked.yaml"), CASE);
    chmodSync(join(root, "locked.yaml"), 0o000);
    const err = await refusal(root);
    expect(err.message).toContain("locked.yaml");
    expect(err.message).toContain("cannot read the case: EACCES");
  });

  it("follows a link to a case file", async () => {
    const root = casesDir();
    writeFileSync(join(root, "target.txt"), CASE);
    symlinkSync(join(root, "target.txt"), join(root, "linked.yaml"));
    expect((await loadCases(root, {})).map((c) => c.id)).toEqual(["linked"]);
  });

  it("names a dangling link named like a case", async () => {
    const root = casesDir();
    symlinkSync(join(root, "absent"), join(root, "gone.yaml"));
    const err = await refusal(root);
    expect(err.message).toContain("gone.yaml");
    expect(err.message).toContain("cannot read the case: ENOENT");
  });
});

describe("placeholders filled once per load", () => {
  const WITH = (n: number) =>
    `method: getCompressedAccount\nparams:\n  hash: "{{knownHash}}"\n  list: ["{{knownHash}}", "x{{knownHash}}y", "{{trees.0}}"]\ndescription: case ${n}\nexpect:\n  result: {}\n`;

  it("fills a placeholder repeated across cases and lists alike, whole or inside text, and a later load sees changed fixtures", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), WITH(1));
    writeFileSync(join(root, "b.yaml"), WITH(2));
    const fixtures: Record<string, unknown> = { knownHash: "H1", trees: [{ tree: "T" }] };
    const first = await loadCases(root, fixtures as never);
    expect(first.map((c) => c.params)).toEqual([
      { hash: "H1", list: ["H1", "xH1y", { tree: "T" }] },
      { hash: "H1", list: ["H1", "xH1y", { tree: "T" }] },
    ]);
    fixtures.knownHash = "H2";
    const second = await loadCases(root, fixtures as never);
    expect(second.map((c) => c.params)).toEqual([
      { hash: "H2", list: ["H2", "xH2y", { tree: "T" }] },
      { hash: "H2", list: ["H2", "xH2y", { tree: "T" }] },
    ]);
  });

  it("still skips every case that names a missing fixture, not only the first", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), WITH(1));
    writeFileSync(join(root, "b.yaml"), WITH(2));
    const cases = await loadCases(root, { knownHash: "H" } as never);
    expect(cases.map((c) => c.skip)).toEqual(["needs fixture `trees.0`, which the profile lacks", "needs fixture `trees.0`, which the profile lacks"]);
  });
});

describe("placeholders inside text", () => {
  const TEMPLATE = (inner: string) => `method: getCompressedAccount\ndescription: d\nexpect:\n  result:\n    value: {matches: "^${inner}x$"}\n`;

  it("fill from the profile, Handlebars index segments included", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), TEMPLATE("{{owner.nullified.[0]}}"));
    const [c] = await loadCases(root, { owner: { nullified: ["N0"] } } as never);
    expect(c!.skip).toBeNull();
    expect(c!.expect.result).toEqual({ value: { matches: "^N0x$" } });
  });

  it("skip the case, naming the fixture, where the profile lacks it (it was a load error)", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), TEMPLATE("{{owner.nullified.[0]}}"));
    const [c] = await loadCases(root, { owner: {} } as never);
    expect(c!.skip).toBe("needs fixture `owner.nullified.[0]`, which the profile lacks");
  });
});

describe("placeholders inside a `matches` pattern", () => {
  it("fill as literal text: a profile's value (a discovered one comes from the target) cannot write regex syntax", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), `method: getCompressedAccount\ndescription: d\nexpect:\n  result:\n    value: {not: {matches: "^{{weird}}$"}}\n`);
    const [c] = await loadCases(root, { weird: "(a+)+$|.*" } as never);
    const matcher = (c!.expect.result as Record<string, Json>).value!;
    expect(matcher).toEqual({ not: { matches: "^\\(a\\+\\)\\+\\$\\|\\.\\*$" } });
    expect(match("x", matcher)).toBeNull();
    expect(match("(a+)+$|.*", matcher)).not.toBeNull();
  });

  it("`expect.error` written as one placeholder takes the fixture's value as it is: text in it is data, never filled again", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), `method: getCompressedAccount\ndescription: d\nexpect:\n  error: "{{refusal}}"\n`);
    writeFileSync(
      join(root, "b.yaml"),
      `method: getCompressedAccount\ndescription: d\nexpect:\n  error: {code: "{{refusal.code}}", message: "{{refusal.message}}"}\n`,
    );
    const fixtures = { refusal: { code: -32602, message: "Invalid {{secret}} {{absent}}" }, secret: "S" };
    const [whole, fields] = await loadCases(root, fixtures as never);
    expect(whole!.skip).toBeNull();
    expect(whole!.expect.error).toEqual({ code: -32602, message: "Invalid {{secret}} {{absent}}", messageMatches: null });
    expect(fields!.skip).toBeNull();
    expect(fields!.expect.error).toEqual({ code: -32602, message: "Invalid {{secret}} {{absent}}", messageMatches: null });
  });

  it("and in `expect.error.messageMatches`, the other pattern a case writes", async () => {
    const root = casesDir();
    writeFileSync(
      join(root, "a.yaml"),
      `method: getCompressedAccount\ndescription: d\nexpect:\n  error: {code: -32000, messageMatches: "^Requested: \\\\[{{weird}}\\\\]$"}\n`,
    );
    const [c] = await loadCases(root, { weird: "a-z|.*" } as never);
    const pattern = new RegExp(c!.expect.error!.messageMatches!);
    expect(pattern.test("Requested: [a-z|.*]")).toBe(true);
    expect(pattern.test("Requested: [b]")).toBe(false);
    expect(pattern.test("anything")).toBe(false);
  });
});

describe("a case's patterns run on a linear-time engine", () => {
  const HOSTILE = `${"a".repeat(40)}!`;

  it("`matches` and `messageMatches` check ^([a-z]+)*$ against a hostile answer without backtracking", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), `method: getCompressedAccount\ndescription: d\nexpect:\n  error: {code: -32000, messageMatches: "^([a-z]+)*$"}\n`);
    const [c] = await loadCases(root, {});
    expect(match(HOSTILE, { matches: "^([a-z]+)*$" })).toBe("does not match /^([a-z]+)*$/");
    expect(match("abc", { matches: "^([a-z]+)*$" })).toBeNull();
    const exchange = { body: { jsonrpc: "2.0", id: 1, error: { code: -32000, message: HOSTILE } } } as unknown as Exchange;
    const findings = await errorsCheck.run({ testCase: c!, exchange } as Parameters<typeof errorsCheck.run>[0]);
    expect(findings.map((f) => [f.status, f.message])).toContainEqual(["fail", "error message does not match"]);
  });

  it.each<[string, string, string]>([
    [
      "a lookahead in `matches`",
      `result:\n    value: {matches: "^(?!1{32}$)x"}`,
      "`expect.result.value`: a `matches` pattern cannot be used: a lookaround cannot run in linear time",
    ],
    [
      "a lookbehind inside `not`",
      `result:\n    value: {not: {matches: "(?<=a)b"}}`,
      "`expect.result.value.not`: a `matches` pattern cannot be used: a lookaround",
    ],
    [
      "a backreference in `messageMatches`",
      `error: {code: -32000, messageMatches: "^(a)\\\\1$"}`,
      "`expect.error.messageMatches`: a pattern cannot be used: a backreference",
    ],
  ])("%s is refused at load, naming the file and the field", async (_name, expectation, message) => {
    const root = casesDir();
    writeFileSync(join(root, "bad.yaml"), `method: getCompressedAccount\ndescription: d\nexpect:\n  ${expectation}\n`);
    const err = await refusal(root);
    expect(err.message).toContain(join(root, "bad.yaml"));
    expect(err.message).toContain(message);
  });
});
