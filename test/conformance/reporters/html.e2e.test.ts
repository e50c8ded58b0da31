/**
 * The HTML report rendered in headless Chromium (skipped, saying so, when /usr/bin/chromium is
 * absent), from a whole run against a broken reference: the DOM holds the verdict and the
 * matrix, and the test takes a screenshot (docs/html-report.png when PHOTON_UPDATE_DOCS=1).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../../conformance/results.js";
import { renderReport as render } from "../../../conformance/reporters/index.js";
import { runSuite, type RunOptions } from "../../../conformance/run.js";
import { datasetProfile, generateDataset } from "../../../reference/index.js";
import { root } from "../../helpers/paths.js";
import { editValue, startBroken } from "../support/broken-servers.js";
import { IDENTITY } from "../support/ci-summaries.js";

const CHROMIUM = "/usr/bin/chromium";
const temp = mkdtempSync(join(tmpdir(), "html-report-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

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

  it("shows the verdict and the matrix in the rendered DOM, and takes the screenshot docs/conformance.md shows", async () => {
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

    // docs/conformance.md's picture is rewritten only when asked (it changes with the date and port every run):
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
