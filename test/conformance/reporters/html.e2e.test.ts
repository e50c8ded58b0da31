/**
 * The HTML report (issue 13): one self-contained page, verdict first and the expandable failures
 * right after it (issue 29), then identity, notes, a method × check matrix, latency and skipped
 * cases; nothing from outside
 * becomes markup. Checked as text, then rendered in headless Chromium (skipped, saying so,
 * when /usr/bin/chromium is absent): the DOM holds the verdict and the matrix, and the test
 * takes a screenshot of a run against a broken reference (the README's docs/html-report.png when
 * PHOTON_UPDATE_DOCS=1).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../../conformance/results.js";
import { render, reporterNames } from "../../../conformance/reporters/index.js";
import { runSuite, type RunOptions } from "../../../conformance/run.js";
import { datasetProfile, generateDataset } from "../../../reference/index.js";
import { root } from "../../helpers/paths.js";
import { editValue, startBroken } from "../support/broken-servers.js";
import { IDENTITY, largeSummary, smallSummary } from "../support/ci-summaries.js";
import { HOSTILE } from "../support/reporters-safety.js";

const CHROMIUM = "/usr/bin/chromium";
const temp = mkdtempSync(join(tmpdir(), "html-report-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The only elements the report writes; a tag from outside would show up here. */
const OUR_TAGS = new Set([
  "!doctype",
  "html",
  "head",
  "meta",
  "title",
  "style",
  "body",
  "main",
  "header",
  "h1",
  "h2",
  "h4",
  "p",
  "code",
  "section",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "span",
  "ul",
  "li",
  "details",
  "summary",
  "pre",
  "br",
  "svg",
  "rect",
  "text",
]);

/** The only attributes it writes: no event handler, no `src`, `href` or `style`. */
const OUR_ATTRIBUTES = new Set([
  "lang",
  "charset",
  "http-equiv",
  "content",
  "name",
  "class",
  "id",
  "title",
  "data-method",
  "data-check",
  "role",
  "aria-label",
  "width",
  "height",
  "viewbox",
  "xmlns",
  "x",
  "y",
  "fill",
  "text-anchor",
]);

function expectSafeHtml(html: string): void {
  // Every `<` from outside is escaped, so each tag here is one the reporter wrote.
  const tags = [...html.matchAll(/<(\/?)([!a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g)];
  expect(tags.length).toBe(html.split("<").length - 1);
  expect([...new Set(tags.map((m) => m[2]!.toLowerCase()))].filter((t) => !OUR_TAGS.has(t))).toEqual([]);
  const attributes = new Set(tags.flatMap((m) => [...m[3]!.matchAll(/\s+([\w:-]+)(?:="[^"]*")?/g)].map((a) => a[1]!.toLowerCase())));
  expect([...attributes].filter((a) => !OUR_ATTRIBUTES.has(a) && a !== "html")).toEqual([]);
  // No script and nothing fetched: the CSP says so and nothing asks.
  expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  expect(html.match(/<style>([\s\S]*?)<\/style>/)![1]).not.toMatch(/url\(|@import|@font-face/i);
  // No raw control or invisible character (our newlines aside).
  expect([...html.replace(/\n/g, "")].filter((c) => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/u.test(c))).toEqual([]);
}

describe("the HTML report as text", () => {
  it("is a reporter the CLI accepts", () => {
    expect(reporterNames).toContain("html");
  });

  it("puts the verdict first, the failures with their exchange right after it, then identity, notes, matrix, latency, skipped cases", () => {
    const html = render("html", smallSummary(), null);
    expectSafeHtml(html);
    const order = ['id="verdict"', 'id="failures"', 'id="identity"', 'id="notes"', 'id="matrix"', 'id="latency"', 'id="skipped"'].map((s) => html.indexOf(s));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain("<h1>VERDICT: NOT CONFORMANT</h1>");
    expect(html).toContain(
      `<td class="fail" data-method="getCompressedAccount" data-check="errors" title="1 failed, 0 warned, 0 passed, 0 skipped"><span class="n">1 failed</span></td>`,
    );
    expect(html).toMatch(/<td class="warn" data-method="getCompressedAccount" data-check="schema"/);
    expect(html).toMatch(/<td class="pass" data-method="getCompressedAccount" data-check="http"[^>]*><span class="n">2 passed<\/span>/);
    expect(html).toMatch(/<details class="case fail"><summary><span class="badge fail">FAIL<\/span><code>account\/bad<\/code>/);
    expect(html).toContain("<h4>Reproduce</h4><pre>curl -sS");
    expect(html).toContain("HTTP 200 in 13 ms");
    expect(html).toMatch(/<svg role="img" aria-label="p50 and p95 latency per method"/);
    expect(html).toContain("<td>Selection</td><td><code>cases account/*; methods getCompressedAccount; shard 2/3</code></td>");
    expect(html).toContain("<li>the batch answer came in another order than Photon&#39;s</li>");
    expect(html).toContain("<td><code>account/needs-hash</code></td><td>needs fixture `unknownHash`, which the profile lacks</td>");
  });

  it("renders hostile strings as text, never as markup", () => {
    const html = render("html", smallSummary(` ${HOSTILE}`), null);
    expectSafeHtml(html);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("\\x1b[2K");
  });

  it("caps the expanded cases of a very large run", () => {
    const html = render("html", largeSummary(700, 5, 1), null);
    expect(html.match(/<details class="case /g)).toHaveLength(500);
    expect(html).toContain("…and 200 more: every one is in the JUnit and JSON reports.");
  });
});

const run = promisify(execFile);
const chromiumFlags = (profile: string) => [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  `--user-data-dir=${profile}`,
];

describe.skipIf(!existsSync(CHROMIUM))("the HTML report in headless Chromium", () => {
  let summary: RunSummary;
  let page: string;

  beforeAll(async () => {
    // The reference with two defects: items in reverse order (pagination) and balances that are not the sums (semantics).
    const dataset = generateDataset();
    const profile = datasetProfile(dataset) as unknown as Record<string, unknown>;
    const fixtures = Object.fromEntries(Object.entries(profile).filter(([k]) => k !== "unknownHash")) as unknown as RunOptions["fixtures"];
    const server = await startBroken(dataset, {
      wire: editValue((v) => {
        if (Array.isArray(v.items) && v.items.length > 1) v.items.reverse();
        if (Array.isArray(v.token_balances)) for (const b of v.token_balances) b.balance = 1;
      }),
    });
    try {
      // Every case the CLI runs by default: the corpus's and the spec-derived ones.
      const result = await runSuite({ url: server.url, casesDir: join(root, "conformance", "cases"), fixtures, concurrency: 4, derived: true });
      summary = {
        ...result,
        identity: result.identity ?? {
          ...IDENTITY,
          selection: { cases: [], methods: [], shard: null },
          fixtures: "reference (without unknownHash)",
          strict: false,
        },
      };
    } finally {
      await server.close();
    }
    page = join(temp, "report.html");
    writeFileSync(page, render("html", summary, null));
  }, 120_000);

  it("shows the verdict and the matrix in the rendered DOM, and takes the README's screenshot", async () => {
    expect(summary.passed).toBe(false);
    const { stdout: dom } = await run(CHROMIUM, [...chromiumFlags(join(temp, "profile-dom")), "--dump-dom", pathToFileURL(page).href], {
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(dom).toContain("<h1>VERDICT: NOT CONFORMANT</h1>");
    expect(dom).toMatch(/<table class="matrix" id="matrix-table">/);
    expect(dom).toMatch(/<td class="fail" data-method="getCompressedTokenAccountsByOwner" data-check="pagination"/);
    expect(dom).toMatch(/<td class="fail" data-method="getCompressedTokenBalancesByOwner" data-check="semantics"/);
    expect(dom).toMatch(/<td class="pass" data-method="getIndexerSlot" data-check="http"/);
    expect(dom).toMatch(/<details class="case fail">/);
    // The first failure is the first thing after the verdict, before the matrix and the chart.
    const firstFailure = dom.indexOf('<details class="case fail">');
    expect(firstFailure).toBeGreaterThan(dom.indexOf("<h1>VERDICT:"));
    expect(firstFailure).toBeLessThan(dom.indexOf('id="identity"'));
    expect(firstFailure).toBeLessThan(dom.indexOf('<table class="matrix"'));
    expect(firstFailure).toBeLessThan(dom.indexOf("<svg"));

    // The README's picture is rewritten only when asked (it changes with the date and port every run):
    // PHOTON_UPDATE_DOCS=1 npx vitest run test/conformance/reporters/html.e2e.test.ts
    const png = process.env.PHOTON_UPDATE_DOCS === "1" ? join(root, "docs", "html-report.png") : join(temp, "html-report.png");
    await run(
      CHROMIUM,
      [...chromiumFlags(join(temp, "profile-shot")), "--hide-scrollbars", `--screenshot=${png}`, "--window-size=1280,1600", pathToFileURL(page).href],
      { timeout: 60_000 },
    );
    const bytes = readFileSync(png);
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(statSync(png).size).toBeGreaterThan(20_000);
  }, 120_000);
});

if (!existsSync(CHROMIUM)) {
  describe("the HTML report in headless Chromium", () => {
    it.skip(`skipped: ${CHROMIUM} is absent (apt-get install -y chromium; .ci/run installs it when it can)`, () => {});
  });
}
