/**
 * Reports that CI renders: JUnit valid against Jenkins' schema with one failure per
 * failing case, skip reasons, the exchange in system-out and the case file; a markdown
 * certificate that fits a GitHub comment whatever fails and names the run; GitHub annotations
 * on case files and the certificate appended to $GITHUB_STEP_SUMMARY.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateXML } from "xmllint-wasm";
import { afterAll, describe, expect, it } from "vitest";
import { GITHUB_COMMENT_LIMIT, renderMarkdown } from "../../conformance/reporters/markdown.js";
import { renderReport as render } from "../../conformance/reporters/index.js";
import { createRedactor } from "../../runtime/index.js";
import { root } from "../helpers/paths.js";
import { largeSummary, smallSummary } from "./support/ci-summaries.js";
import { checkWellFormedXml, expectSafeGithub, expectSafeJunit, expectSafeMarkdown, HOSTILE } from "./support/reporters-safety.js";

const XSD = readFileSync(join(root, "test", "fixtures", "junit", "jenkins-junit.xsd"), "utf8");
const temp = mkdtempSync(join(tmpdir(), "reports-ci-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The two attributes GitLab and Surefire add that Jenkins' schema does not declare (see test/fixtures/junit/README.md). */
const withoutExtensions = (xml: string) => xml.replace(/(<testcase [^>]*?) file="[^"]*"/g, "$1").replace(/<skipped message="[^"]*"\/>/g, "<skipped/>");

async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: "report.xml", contents: xml }, schema: { fileName: "jenkins-junit.xsd", contents: XSD } });
  return result.errors.map((e) => e.message);
}

const testcases = (xml: string) => [...xml.matchAll(/<testcase [^>]*?(?:\/>|>[\s\S]*?<\/testcase>)/g)].map((m) => m[0]);

describe("JUnit", () => {
  it("one <failure> per failing case holding every failed finding; skip reasons; the exchange in system-out; file and time", () => {
    const xml = render("junit", smallSummary(), null);
    const cases = testcases(xml);
    expect(cases).toHaveLength(4);
    const [bad, odd, fine, skipped] = cases as [string, string, string, string];
    expect(bad.match(/<failure /g)).toHaveLength(1);
    expect(bad).toMatch(/<failure type="errors,envelope" message="errors: wrong error code \(and 1 more\)">/);
    expect(bad).toContain("errors: wrong error code\n  expected: -32602\n  actual: -32601");
    expect(bad).toContain("envelope: id not echoed");
    expect(bad).toContain('file="conformance/cases/account/bad.yaml"');
    expect(bad).toContain('time="0.250"');
    const out = bad.split("<system-out>")[1]!;
    expect(out).toContain("request: POST http://127.0.0.1:8784/?api-key=***");
    expect(out).toContain("reproduce: curl -sS");
    expect(out).toContain("response: HTTP 200 in 13 ms");
    expect(out).toContain("response body: {&quot;jsonrpc&quot;:&quot;2.0&quot;");
    expect(odd).not.toContain("<failure");
    expect(odd).toContain("warning: schema: unknown field `extra`");
    expect(fine).not.toMatch(/<failure|<system-out>|<skipped/);
    expect(skipped).toContain('<skipped message="needs fixture `unknownHash`, which the profile lacks"/>');
    expect(xml).toMatch(/<testsuite [^>]*tests="4" failures="1" errors="0" skipped="1"/);
  });

  it("names the run and carries its notes as properties", () => {
    const xml = render("junit", smallSummary(), null);
    for (const p of [
      'name="tool" value="photon-indexer-kit 0.1.0"',
      'name="selection" value="cases account/*; methods getCompressedAccount; shard 2/3"',
      'name="fixtures" value="devnet.json"',
      'name="strict" value="yes"',
      'name="command" value="run"',
      'name="note" value="the batch answer came in another order than Photon&apos;s"',
    ]) {
      expect(xml).toContain(`<property ${p}/>`);
    }
  });

  it.each([
    ["a run with every kind of case", smallSummary()],
    ["hostile strings everywhere", smallSummary(` ${HOSTILE}`)],
    ["5,000 failing cases", largeSummary(5000, 10, 1)],
  ])("validates against Jenkins' JUnit schema (%s), its two extension attributes aside", async (_what, summary) => {
    const xml = render("junit", summary, null);
    expectSafeJunit(xml, summary.passed);
    expect(await schemaErrors(withoutExtensions(xml))).toEqual([]);
  });

  it("the schema check is real: with the extensions left in, the validator names them and nothing else", async () => {
    const errors = await schemaErrors(render("junit", smallSummary(), null));
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toMatch(/attribute '(file|message)': The attribute '(file|message)' is not allowed/);
    expect(
      await schemaErrors(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="x" tests="1"><testcase name="a"><oops/></testcase></testsuite></testsuites>\n',
      ),
    ).not.toEqual([]);
  });
});

describe("markdown certificate", () => {
  it("stays under GitHub's comment limit with 5,000 failing cases with long messages, folded and capped", () => {
    const summary = largeSummary(5000, 300);
    const md = renderMarkdown(summary);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    const findings = summary.results.flatMap((r) => r.findings.filter((f) => f.status === "fail"));
    expect(findings).toHaveLength(10_000);
    const more = /…and (\d+) more findings/.exec(md);
    expect(more).not.toBeNull();
    const shown = findings.length - Number(more![1]);
    expect(shown).toBeGreaterThan(10);
    expectSafeMarkdown(md, false, shown);
    expect(md).toContain("<details><summary>10000 failed and 0 warned findings in 5000 cases</summary>");
    expect(md).toContain("| Cases | 5300 cases: 0 passed, 5000 failed, 0 warned, 300 skipped |");
  });

  it("names the run, lists notes and skipped cases with their reasons (capped)", () => {
    const md = renderMarkdown(smallSummary());
    for (const row of [
      "| Tool | `photon-indexer-kit 0.1.0` |",
      "| Command | `run` |",
      "| Selection | `cases account/*; methods getCompressedAccount; shard 2/3` |",
      "| Fixtures | `devnet.json` |",
      "| Strict | `yes` |",
    ]) {
      expect(md).toContain(row);
    }
    expect(md).toContain("## Notes\n\n- the batch answer came in another order than Photon's");
    expect(md).toContain("| `account/needs-hash` | needs fixture \\`unknownHash\\`, which the profile lacks |");
    expectSafeMarkdown(md, false, 3);
    const many = renderMarkdown(largeSummary(0, 80));
    expect(many).toContain("…and 30 more skipped cases.");
    expect(many).toContain("<details><summary>80 skipped</summary>");
    expectSafeMarkdown(many, true, 0);
  });

  it("hostile identity and notes render inert", () => {
    const md = renderMarkdown(smallSummary(` ${HOSTILE}`));
    expectSafeMarkdown(md, false, 3);
    expect(md).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("GitHub", () => {
  it("annotations point at case files, relative to the working directory", () => {
    const text = render("github", smallSummary(` ${HOSTILE}`), null);
    expectSafeGithub(text, false, 3);
    const errors = text.split("\n").filter((l) => l.startsWith("::error "));
    expect(errors).toHaveLength(2);
    for (const line of errors) expect(line).toMatch(/^::error file=conformance\/cases\/account\/bad\.yaml,title=/);
    expect(text).toMatch(/^::warning file=conformance\/cases\/account\/odd\.yaml,title=/m);
  });

  it("appends the certificate (redacted) to $GITHUB_STEP_SUMMARY when it is set, keeping what was there", () => {
    const file = join(temp, "step-summary.md");
    writeFileSync(file, "# earlier step\n");
    const saved = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = file;
    try {
      const summary = smallSummary(" s3cr3t-key");
      render("github", summary, null, createRedactor(["s3cr3t-key"]));
    } finally {
      if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = saved;
    }
    const written = readFileSync(file, "utf8");
    expect(written.startsWith("# earlier step\n# Conformance certificate\n")).toBe(true);
    expect(written).toContain("**Verdict: NOT CONFORMANT**");
    expect(written).not.toContain("s3cr3t-key");
  });

  it("writes no step summary without $GITHUB_STEP_SUMMARY, and an unwritable one is a warning", () => {
    const summary = smallSummary();
    const saved = process.env.GITHUB_STEP_SUMMARY;
    try {
      delete process.env.GITHUB_STEP_SUMMARY;
      expectSafeGithub(render("github", summary, null), false, 3);
      process.env.GITHUB_STEP_SUMMARY = join(temp, "no", "such", "dir", "summary.md");
      const text = render("github", summary, null);
      expectSafeGithub(text, false, 4);
      expect(text).toMatch(/^::warning title=photon-conformance::could not append the certificate to \$GITHUB_STEP_SUMMARY: ENOENT/m);
    } finally {
      if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = saved;
    }
  });
});

describe("notes in every report", () => {
  it.each(["json", "junit", "markdown", "github", "html"] as const)("%s shows the run's notes", (name) => {
    const out = render(name, smallSummary(), null);
    expect(out).toMatch(/the batch answer came in another order than Photon(&apos;|&#39;|')s/);
  });

  it("the JUnit well-formedness check still holds", () => {
    expect(() => checkWellFormedXml(render("junit", smallSummary(` ${HOSTILE}`), null))).not.toThrow();
  });
});
