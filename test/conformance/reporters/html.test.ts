/**
 * The HTML report as text: one self-contained page, verdict first and the expandable failures
 * right after it, then identity, notes, a method × check matrix, latency and skipped cases;
 * nothing from outside becomes markup.
 */
import { describe, expect, it } from "vitest";
import { renderReport as render, reporterNames } from "../../../conformance/reporters/index.js";
import { largeSummary, smallSummary } from "../support/ci-summaries.js";
import { HOSTILE } from "../support/reporters-safety.js";

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
