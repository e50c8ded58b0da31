/**
 * Output injection, reporter by reporter: a run summary carrying hostile strings in every
 * outside position (messages, values, ids, methods, the URL, headers, body, fixtures, the
 * spec's title) renders without any of them taking over the output.
 */
import { describe, expect, it } from "vitest";
import { noCases, type CaseResult, type Finding, type RunSummary, type Status } from "../../../conformance/results.js";
import { progressLine } from "../../../conformance/reporters/console.js";
import { renderReport as render, reporterNames } from "../../../conformance/reporters/index.js";
import { createRedactor, parseJson } from "../../../runtime/index.js";
import {
  checkWellFormedXml,
  expectConsoleStructure,
  expectSafeConsole,
  expectSafeGithub,
  expectSafeJson,
  expectSafeJunit,
  expectSafeMarkdown,
  HOSTILE,
} from "../support/reporters-safety.js";

function result(id: string, status: Status, findings: Finding[], extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    method: `getCompressedAccount${HOSTILE}`,
    description: `a case ${HOSTILE}`,
    required: true,
    findings,
    exchange: {
      request: {
        method: "POST",
        url: `http://127.0.0.1:1/?q=${HOSTILE}`,
        headers: { "content-type": "application/json", "x-evil": HOSTILE },
        body: JSON.stringify({ id: HOSTILE }) + HOSTILE,
      },
      status: 200,
      headers: { "x-server": HOSTILE },
      text: HOSTILE,
      body: { error: { message: HOSTILE } },
      parseError: HOSTILE,
      error: HOSTILE,
      startedAt: 0,
      durationMs: 12,
      attempts: 1,
    },
    status,
    durationMs: 12,
    ...extra,
  };
}

/** Three failing findings (one per position), a warning, a passing and a skipped case. */
function hostileSummary(passed: boolean): RunSummary {
  const results: CaseResult[] = passed
    ? [result(`warned/${HOSTILE}`, "warn", [{ check: "schema", status: "warn", message: `unknown field ${HOSTILE}\nVERDICT: NOT CONFORMANT` }])]
    : [
        result(`evil/${HOSTILE}`, "fail", [
          { check: "errors", status: "fail", message: "wrong error message", expected: "Method not found", actual: HOSTILE },
          { check: "envelope", status: "fail", message: `id does not echo ${HOSTILE}`, expected: HOSTILE, actual: HOSTILE },
          { check: `schema${HOSTILE}`, status: "fail", message: HOSTILE },
          { check: "semantics", status: "warn", message: HOSTILE },
        ]),
        result(`optional/${HOSTILE}`, "warn", [{ check: "http", status: "fail", message: HOSTILE }], { required: false }),
      ];
  results.push(result("slot/indexer-slot", "pass", [{ check: "http", status: "pass", message: HOSTILE }], { exchange: null }));
  results.push(result(`skipped/${HOSTILE}`, "skip", [{ check: "fixtures", status: "skip", message: HOSTILE }], { exchange: null }));
  const counts = noCases();
  for (const r of results) counts[r.status]++;
  return {
    target: `http://127.0.0.1:1/${HOSTILE}`,
    spec: { title: `Photon ${HOSTILE}`, version: `0.50.0${HOSTILE}`, sha256: "ab".repeat(32) },
    startedAt: "2025-01-01T00:00:00.000Z",
    durationMs: 1234,
    results,
    counts,
    passed,
    options: { header: HOSTILE, big: 18446744073709551615n },
    discovered: { owner: HOSTILE, [HOSTILE]: "key", lamports: 18446744073709551615n },
  };
}

/** Findings that are annotated (fail or warn), and table rows of the markdown findings. */
const shownFindings = (s: RunSummary) =>
  s.results.filter((r) => r.status === "fail" || r.status === "warn").flatMap((r) => r.findings.filter((f) => f.status === "fail" || f.status === "warn"));

describe.each([false, true])("reporters on a summary full of hostile strings (passed: %s)", (passed) => {
  const summary = hostileSummary(passed);

  it("console: one verdict line, ours; no control character; findings stay indented", () => {
    const plain = render("console", summary, null);
    expectSafeConsole(plain, passed);
    expectConsoleStructure(plain);
    expect(plain).toContain("\\x1b[2K");
    expect(plain).toContain("\\nVERDICT: CONFORMANT");
    const coloured = render("console", summary, { isTTY: true } as NodeJS.WriteStream);
    expectSafeConsole(coloured, passed, true);
  });

  const shown = shownFindings(summary).length;
  it.each([
    [
      "markdown",
      "no HTML, image, link, heading or extra row from the target",
      (out: string) => (expectSafeMarkdown(out, passed, shown), expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;")),
    ],
    [
      "junit",
      "well-formed XML with only legal characters",
      (out: string) => (expectSafeJunit(out, passed), expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;"), expect(out).toContain("]]&gt;")),
    ],
    [
      "github",
      "exactly the annotations emitted, none smuggled in",
      (out: string) => (expectSafeGithub(out, passed, shown), expect(out).toContain("%250A::error::pwned")),
    ],
  ] as const)("%s: %s", (name, _what, check) => {
    check(render(name, summary, null));
  });

  it("json: valid JSON, uint64 exact, every hostile value kept (escaped)", () => {
    const text = render("json", summary, null);
    expectSafeJson(text, passed);
    expect(text).toContain("18446744073709551615");
    const back = parseJson(text) as { target: string; discoveredFixtures: Record<string, unknown> };
    expect(back.target).toBe(summary.target);
    expect(back.discoveredFixtures.lamports).toBe(18446744073709551615n);
  });
});

describe("progress and reproduce lines", () => {
  const hostile = hostileSummary(false).results[0]!;

  it("the progress line shows a hostile case id escaped, on a TTY and off it", () => {
    for (const tty of [true, false]) {
      for (const total of [3, undefined]) {
        const line = progressLine({ color: false, tty }, hostile, 3, total);
        const inner = line.replace(/^\r/, "").replace(/\n$/, "");
        expect([...inner].filter((c) => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(c))).toEqual([]);
      }
    }
  });
});

describe("redaction before escaping", () => {
  // A secret made of characters each sink escapes: whole-text redaction after escaping would miss it.
  const SECRET = "Zq9W|<&>%:,'`\n$(x)_*[]Kx7Y";

  it.each(reporterNames)("%s: a secret in any outside string is masked by the redact function given", (name) => {
    const s = hostileSummary(false);
    const withSecret: RunSummary = {
      ...s,
      target: `${s.target}${SECRET}`,
      discovered: { owner: SECRET },
      results: s.results.map((r) => ({
        ...r,
        id: `${r.id}${SECRET}`,
        findings: r.findings.map((f) => ({ ...f, message: `${f.message} ${SECRET}`, ...(f.actual !== undefined ? { actual: SECRET } : {}) })),
      })),
    };
    const out = render(name, withSecret, null, createRedactor([SECRET]));
    expect(out).not.toContain("Zq9W");
    expect(out).not.toContain("Kx7Y");
  });
});

describe("the well-formedness check itself", () => {
  it.each([
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a>\u0000</a>', /character/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a><b></a></b>', /closes nothing/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a x="1 & 2"/>', /bare &/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a>]]></a>', /\]\]>/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a x="<"/>', /not a tag/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a>&#0;</a>', /illegal/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a/><b/>', /more than one root/],
  ])("rejects %j", (xml, why) => {
    expect(() => checkWellFormedXml(xml)).toThrow(why);
  });

  it("accepts what a JUnit report looks like", () => {
    expect(() => checkWellFormedXml('<?xml version="1.0" encoding="UTF-8"?>\n<a n="&lt;&#10;"><b>x &amp; y</b><c/></a>\n')).not.toThrow();
  });
});
