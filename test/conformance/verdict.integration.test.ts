/**
 * Honest verdicts: skipped cases listed with their reasons, a fixtures profile that
 * does not describe the target said in one note, every summary naming what was run, a failing
 * run summarised per check and per method, and batches matched by id (a reordered batch with
 * distinct ids passes, with a note; duplicate ids keep the order rule).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFile } from "../../conformance/offline.js";
import { main } from "../../conformance/cli/main.js";
import { diffTargets } from "../../conformance/compare.js";
import { REORDERED_NOTE } from "../../conformance/checks/envelope.js";
import { noCases, type CaseResult, type CaseStatus, type Finding, type RunSummary } from "../../conformance/results.js";
import { renderGithub } from "../../conformance/reporters/github.js";
import { renderReport as render } from "../../conformance/reporters/index.js";
import { renderConsole } from "../../conformance/reporters/console.js";
import { runSuite, type RunOptions } from "../../conformance/run.js";
import { methodVerdicts, verdictOf } from "../../conformance/verdict.js";
import { coverageText, methodStatusText } from "../../conformance/reporters/support/parts.js";
import { generateDataset } from "../../reference/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { parseJson, stringifyJson, type Json } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";
import { startBroken } from "./support/broken-servers.js";

const casesDir = join(root, "conformance", "cases");
const referenceProfile = () => parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as RunOptions["fixtures"];
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
const plain = { color: false, tty: false };
const lines = (text: string) => text.split("\n");

const indexer = useReferenceIndexer();
const dir = useScratch("verdicts");

function result(id: string, method: string, status: CaseStatus, findings: Finding[]): CaseResult {
  return { id, method, description: `case ${id}`, required: true, findings, exchange: null, status, durationMs: 0 };
}

function summaryOf(results: CaseResult[], extra: Partial<RunSummary> = {}): RunSummary {
  const counts = noCases();
  for (const r of results) counts[r.status]++;
  return {
    target: "http://127.0.0.1:1/",
    spec: { title: "Photon", version: "0.50.0", sha256: "ab".repeat(32) },
    startedAt: "2025-01-01T00:00:00.000Z",
    durationMs: 10,
    results,
    counts,
    passed: counts.fail === 0 && counts.notRun === 0,
    options: {},
    ...extra,
  };
}

describe("skipped cases on the console", () => {
  it("are counted and listed with their reason, identical reasons grouped", () => {
    const skipped = (id: string, reason: string) => result(id, "getCompressedAccount", "skip", [{ check: "fixtures", status: "skip", message: reason }]);
    const many = Array.from({ length: 12 }, (_, i) => skipped(`token-accounts/case-${i}`, "needs fixture `tokenOwner`"));
    const out = renderConsole(
      summaryOf([result("slot/indexer-slot", "getIndexerSlot", "pass", []), skipped("account/by-address", "needs fixture `knownAddress`"), ...many]),
      plain,
    );
    const at = lines(out).indexOf("skipped: 13");
    expect(at).toBeGreaterThan(-1);
    expect(lines(out).slice(at + 1, at + 4)).toEqual([
      "    account/by-address: needs fixture `knownAddress`",
      "    12 cases: needs fixture `tokenOwner`",
      `      ${many
        .slice(0, 10)
        .map((r) => r.id)
        .join(", ")}, and 2 more`,
    ]);
  });

  it("a run without skips has no such section", () => {
    expect(renderConsole(summaryOf([result("slot/indexer-slot", "getIndexerSlot", "pass", [])]), plain)).not.toContain("skipped:");
  });
});

describe("a failing run ends with where it failed", () => {
  it("failing cases per check and per method, most first; protocol cases in one row", () => {
    const failing = (id: string, method: string, ...checks: string[]) =>
      result(
        id,
        method,
        "fail",
        checks.map((check) => ({ check, status: "fail", message: "broken" })),
      );
    const results = [
      failing("a/1", "getCompressedAccountsByOwner", "pagination", "pagination"),
      failing("a/2", "getCompressedAccountsByOwner", "pagination"),
      failing("a/3", "getCompressedAccountsByOwner", "pagination", "semantics"),
      failing("t/1", "getCompressedTokenAccountsByOwner", "pagination", "schema"),
      failing("t/2", "getCompressedTokenAccountsByOwner", "schema"),
      failing("h/1", "liveness", "http"),
      result("s/1", "getIndexerSlot", "pass", []),
      result("w/1", "getIndexerSlot", "warn", [{ check: "schema", status: "warn", message: "extra field" }]),
    ];
    const out = lines(renderConsole(summaryOf(results), plain));
    expect(out).toContain("failing cases by check: pagination 4, schema 2, http 1, semantics 1");
    expect(out).toContain("failing cases by method: getCompressedAccountsByOwner 3, getCompressedTokenAccountsByOwner 2, (protocol) 1");
    expect(out.indexOf("failing cases by check: pagination 4, schema 2, http 1, semantics 1")).toBeLessThan(out.findIndex((l) => l.startsWith("VERDICT:")));
  });

  it("a passing run prints no failure summary", () => {
    expect(renderConsole(summaryOf([result("s/1", "getIndexerSlot", "pass", [])]), plain)).not.toContain("failing cases by");
  });
});

describe("every summary names what was run", () => {
  it("run: tool, command, selection, fixtures profile and --strict; the console footer shows them", async () => {
    const summary = await runSuite({
      url: indexer().url,
      casesDir,
      fixtures: referenceProfile(),
      caseGlobs: ["slot/*"],
      shard: { index: 1, total: 1 },
      strict: true,
      fixturesName: "devnet.json",
    });
    expect(summary.identity).toEqual({
      command: "run",
      tool: { name: pkg.name, version: pkg.version },
      selection: { cases: ["slot/*"], methods: [], shard: "1/1" },
      fixtures: "devnet.json",
      strict: true,
    });
    const out = lines(renderConsole(summary, plain));
    expect(out).toContain(`Run: ${pkg.name} ${pkg.version} run · cases: --case slot/* --shard 1/1 · fixtures: devnet.json · strict: on`);
    expect(out.some((l) => l.startsWith(`Spec ${summary.spec.title} ${summary.spec.version} (sha256 ${summary.spec.sha256.slice(0, 12)})`))).toBe(true);
  }, 60_000);

  it("diff and check name theirs", async () => {
    const diffed = await diffTargets({
      url: indexer().url,
      against: indexer().url,
      casesDir,
      fixtures: referenceProfile(),
      methods: ["getIndexerSlot"],
      fixturesName: "reference",
    });
    expect(diffed.identity).toEqual({
      command: "diff",
      tool: { name: pkg.name, version: pkg.version },
      selection: { cases: [], methods: ["getIndexerSlot"], shard: null },
      fixtures: "reference",
      strict: false,
    });
    const file = join(dir, "traffic.jsonl");
    writeFileSync(
      file,
      `${JSON.stringify({ request: { jsonrpc: "2.0", id: 1, method: "getIndexerSlot" }, response: { jsonrpc: "2.0", id: 1, result: 5 } })}\n`,
    );
    const checked = await checkFile({ file, strict: true });
    expect(checked.identity).toMatchObject({
      command: "check",
      tool: { version: pkg.version },
      selection: { cases: [], methods: [], shard: null },
      strict: true,
    });
  }, 60_000);

  it("the CLI names the profile: reference by default, the file as given", async () => {
    const file = join(dir, "profile.json");
    writeFileSync(file, readFileSync(join(root, "conformance", "fixtures", "reference.json")));
    const byDefault = await captured(main, ["run", "--url", indexer().url, "--case", "slot/indexer-slot", "--reporter", "console"]);
    expect(byDefault.out).toContain("· fixtures: reference · strict: off");
    const given = await captured(main, ["run", "--url", indexer().url, "--case", "slot/indexer-slot", "--fixtures", file, "--strict", "--reporter", "console"]);
    expect(given.out).toContain(`· fixtures: ${file} · strict: on`);
  }, 60_000);
});

describe("a fixtures profile that does not describe the target", () => {
  const lookups = ["account/by-hash", "account/by-address", "accounts-by-owner/*", "slot/*"];

  it("is said in one note naming --discover and --fixtures, without changing a verdict", async () => {
    const other = await startReferenceIndexer({ port: 0, seed: 2 });
    try {
      const summary = await runSuite({ url: other.url, casesDir, fixtures: referenceProfile(), caseGlobs: lookups, fixturesName: "reference" });
      expect(summary.notes).toHaveLength(1);
      expect(summary.notes![0]).toMatch(
        /^the default fixtures profile \(reference.*\) does not describe this target \(.*knownHash \w+ is not found.*\): run with --discover --seed-owner PUBKEY or --fixtures FILE$/,
      );
      const noteLines = lines(renderConsole(summary, plain)).filter((l) => l.includes("does not describe this target"));
      expect(noteLines).toEqual([`note: ${summary.notes![0]}`]);
      // The note adds no finding: each status is its findings' roll-up, and the slot cases still pass.
      expect(summary.results.flatMap((r) => r.findings).some((f) => /profile/.test(f.message))).toBe(false);
      expect(summary.results.filter((r) => r.id.startsWith("slot/")).every((r) => r.status === "pass")).toBe(true);
      expect(summary.passed).toBe(false);
    } finally {
      await other.close();
    }
  }, 60_000);

  it("a profile given by file is named as given", async () => {
    const other = await startReferenceIndexer({ port: 0, seed: 2 });
    try {
      const summary = await runSuite({ url: other.url, casesDir, fixtures: referenceProfile(), caseGlobs: ["account/by-hash"], fixturesName: "devnet.json" });
      expect(summary.notes).toEqual([expect.stringMatching(/^the fixtures profile devnet\.json does not describe this target/)]);
    } finally {
      await other.close();
    }
  }, 60_000);

  it("no note where the profile describes the target", async () => {
    const summary = await runSuite({ url: indexer().url, casesDir, fixtures: referenceProfile(), caseGlobs: lookups, fixturesName: "reference" });
    expect(summary.passed).toBe(true);
    expect(summary.notes).toBeUndefined();
  }, 60_000);
});

describe("batch answers in another order", () => {
  it("distinct ids: matched by id and conformant, with a note; duplicate ids keep the order rule", async () => {
    const reversed = await startBroken(generateDataset(), { wire: (b) => (Array.isArray(b) ? [...b].reverse() : b) });
    try {
      const summary = await runSuite({
        url: reversed.url,
        casesDir,
        fixtures: referenceProfile(),
        caseGlobs: ["batch/lookups", "batch/mixed", "batch/duplicate-ids"],
      });
      const byId = new Map(summary.results.map((r) => [r.id, r]));
      for (const id of ["batch/lookups", "batch/mixed"]) {
        expect(byId.get(id)!.status, id).toBe("pass");
        expect(byId.get(id)!.findings).toContainEqual({ check: "envelope", status: "pass", message: REORDERED_NOTE, note: true });
      }
      expect(byId.get("batch/duplicate-ids")!.status).toBe("fail");
      expect(
        byId
          .get("batch/duplicate-ids")!
          .findings.filter((f) => f.status === "fail")
          .map((f) => f.message),
      ).toContain("batch reply 0: result.value.hash differs (replies must keep request order)");
      expect(summary.notes).toEqual([`${REORDERED_NOTE}: 2 cases (batch/lookups, batch/mixed)`]);
      expect(lines(renderConsole(summary, plain))).toContain(`note: ${REORDERED_NOTE}: 2 cases (batch/lookups, batch/mixed)`);
    } finally {
      await reversed.close();
    }
  }, 60_000);

  it("in request order: no note", async () => {
    const summary = await runSuite({ url: indexer().url, casesDir, fixtures: referenceProfile(), caseGlobs: ["batch/*"] });
    expect(summary.passed).toBe(true);
    expect(summary.notes).toBeUndefined();
  }, 60_000);
});

describe("a run that stopped early", () => {
  const stopped = (id: string, method: string, why: string): CaseResult => ({ ...result(id, method, "notRun", []), notRun: why });
  const interrupted = () => {
    const results = [
      result("slot/indexer-slot", "getIndexerSlot", "pass", []),
      ...Array.from({ length: 40 }, (_, i) => stopped(`account/case-${i}`, "getCompressedAccount", "interrupted (SIGINT)")),
    ];
    const base = summaryOf(results);
    return { ...base, passed: false, interrupted: true as const };
  };

  it("Ctrl-C: INTERRUPTED with the counts of what ran; in-flight and unstarted cases are not run, no method is not conformant", async () => {
    const slow = await startReferenceIndexer({ port: 0, latencyMs: 200 });
    const stop = new AbortController();
    let seen = 0;
    try {
      const summary = await runSuite({
        url: slow.url,
        casesDir,
        fixtures: referenceProfile(),
        caseGlobs: ["account/*", "slot/*"],
        concurrency: 2,
        signal: stop.signal,
        onResult: () => {
          if (++seen === 2) stop.abort(new Error("interrupted (SIGINT)"));
        },
      });
      expect(verdictOf(summary)).toBe("INTERRUPTED");
      expect(summary.interrupted).toBe(true);
      expect(summary.passed).toBe(false);
      expect(summary.counts.fail).toBe(0);
      expect(summary.counts.notRun).toBeGreaterThan(10);
      const notRun = summary.results.filter((r) => r.status === "notRun");
      expect(notRun.length).toBe(summary.counts.notRun);
      // the case in flight at the stop was given up, not failed
      expect(notRun.some((r) => r.notRun === "given up: interrupted (SIGINT)")).toBe(true);
      expect(notRun.every((r) => r.findings.length === 0)).toBe(true);
      expect(summary.methods!.filter((m) => m.status === "not conformant")).toEqual([]);
      expect(summary.methods!.map((m) => m.status)).toContain("not run");
    } finally {
      await slow.close();
    }
  }, 60_000);

  it("every reporter says INTERRUPTED and counts the cases not run without listing them", () => {
    const summary = interrupted();
    const text = lines(renderConsole(summary, plain));
    expect(text.at(-2)).toBe("VERDICT: INTERRUPTED");
    expect(text).toContain("40 cases not run (interrupted (SIGINT))");
    expect(text).toContain("41 cases: 1 passed, 0 failed, 0 warned, 0 skipped, 40 not run in 0.0 s");
    expect(text.filter((l) => l.includes("account/case-"))).toEqual([]);
    const json = parseJson(render("json", summary, null)) as { verdict: string; counts: Record<string, number>; cases: { status: string; notRun?: string }[] };
    expect(json.verdict).toBe("INTERRUPTED");
    expect(json.counts).toEqual({ pass: 1, fail: 0, warn: 0, skip: 0, notRun: 40 });
    expect(json.cases.filter((c) => c.status === "notRun" && c.notRun === "interrupted (SIGINT)").length).toBe(40);
    const junit = render("junit", summary, null);
    expect(junit).toContain('tests="1" failures="0"');
    expect(junit).not.toContain("account/case-");
    expect(junit).toContain('<property name="not run" value="40 cases not run (interrupted (SIGINT))"/>');
    expect(junit).toContain('<property name="verdict" value="INTERRUPTED"/>');
    expect(render("markdown", summary, null)).toContain("**Verdict: INTERRUPTED**");
    expect(render("markdown", summary, null)).toContain("| Not run | 40 cases not run (interrupted (SIGINT)) |");
    expect(render("html", summary, null)).toContain(`<header class="verdict warn" id="verdict"><h1>VERDICT: INTERRUPTED</h1>`);
    expect(renderGithub(summary, undefined)).toMatch(
      /::notice title=photon-conformance::VERDICT: INTERRUPTED \(1 passed, 0 failed, 0 warned, 0 skipped, 40 not run\)/,
    );
  });

  it("stopped by --max-time with nothing failed: INCOMPLETE, never CONFORMANT; with a failure: NOT CONFORMANT", () => {
    const deadline = "the run's deadline of 3 s (--max-time) was reached";
    const ran = result("slot/indexer-slot", "getIndexerSlot", "pass", []);
    const incomplete = summaryOf([ran, stopped("account/a", "getCompressedAccount", deadline)]);
    expect(incomplete.passed).toBe(false);
    expect(verdictOf(incomplete)).toBe("INCOMPLETE");
    const failed = summaryOf([
      result("a/1", "getCompressedAccount", "fail", [{ check: "http", status: "fail", message: "boom" }]),
      stopped("account/a", "getCompressedAccount", deadline),
    ]);
    expect(verdictOf(failed)).toBe("NOT CONFORMANT");
    expect(verdictOf(summaryOf([ran]))).toBe("CONFORMANT");
  });
});

describe("coverage", () => {
  const skippedCase = (id: string, method: string) =>
    result(id, method, "skip", [{ check: "fixtures", status: "skip", message: "needs fixture `tokenOwner`" }]);
  const partial = () => {
    const results = [
      ...Array.from({ length: 28 }, (_, i) => result(`account/p-${i}`, "getCompressedAccount", "pass", [])),
      ...Array.from({ length: 37 }, (_, i) => skippedCase(`account/s-${i}`, "getCompressedAccount")),
      ...Array.from({ length: 40 }, (_, i) => result(`balance/p-${i}`, "getCompressedAccountBalance", "pass", [])),
      skippedCase("balance/s-0", "getCompressedAccountBalance"),
      result("slot/indexer-slot", "getIndexerSlot", "pass", []),
    ];
    return { ...summaryOf(results), methods: methodVerdicts(results, new Map()) };
  };

  it("a method most of whose cases were skipped is partly certified, not conformant; each standing states its coverage", () => {
    const byMethod = new Map(partial().methods.map((m) => [m.method, m]));
    expect(byMethod.get("getCompressedAccount")!.status).toBe("partly certified");
    expect(methodStatusText(byMethod.get("getCompressedAccount")!)).toBe("partly certified (28 of 65 cases run)");
    expect(byMethod.get("getCompressedAccountBalance")!.status).toBe("conformant");
    expect(methodStatusText(byMethod.get("getCompressedAccountBalance")!)).toBe("conformant (40 of 41 cases run)");
    expect(methodStatusText(byMethod.get("getIndexerSlot")!)).toBe("conformant");
  });

  it("every reporter states coverage overall and per method, and the console's closing lines whenever cases were skipped", () => {
    const summary = partial();
    const overall = "69 of 107 selected cases run (64.4%)";
    const text = lines(renderConsole(summary, plain));
    expect(text.at(-3)).toBe(`coverage: ${overall}: 38 skipped; 1 method partly certified`);
    expect(text.at(-2)).toBe("VERDICT: CONFORMANT");
    expect(text).toContain("    getCompressedAccount: partly certified (28 of 65 cases run)");
    expect(text).toContain("    getCompressedAccountBalance: conformant (40 of 41 cases run)");
    expect(text.find((l) => l.startsWith("methods: "))).toBe("methods: 1 partly certified, 2 conformant");
    const json = parseJson(render("json", summary, null)) as { coverage: unknown; methods: { method: string; coverage: unknown; standing: string }[] };
    expect(json.coverage).toEqual({ run: 69, selected: 107 });
    expect(json.methods.find((m) => m.method === "getCompressedAccount")).toMatchObject({
      coverage: { run: 28, selected: 65 },
      standing: "partly certified (28 of 65 cases run)",
    });
    const junit = render("junit", summary, null);
    expect(junit).toContain(`<property name="coverage" value="${overall}"/>`);
    expect(junit).toContain('<property name="method.getCompressedAccount" value="partly certified (28 of 65 cases run)"/>');
    const markdown = render("markdown", summary, null);
    expect(markdown).toContain(`| Coverage | ${overall} |`);
    expect(markdown).toContain("partly certified (28 of 65 cases run)");
    const html = render("html", summary, null);
    expect(html).toContain(`<tr><td>Coverage</td><td><code>${overall}</code></td></tr>`);
    expect(html).toContain("partly certified (28 of 65 cases run)");
    const github = renderGithub(summary, undefined);
    // workflow-command data encodes % as %25
    expect(github).toContain(`coverage: ${overall}: 38 skipped; 1 method partly certified`.replace("%", "%25"));
    expect(github).toContain("getCompressedAccount: partly certified (28 of 65 cases run)");
  });

  it("a run with every case run has no coverage line; coverage is never rounded up to 100%", () => {
    const full = summaryOf([result("slot/indexer-slot", "getIndexerSlot", "pass", [])]);
    expect(renderConsole(full, plain)).not.toContain("coverage:");
    expect(coverageText(full)).toBe("1 of 1 selected cases run (100.0%)");
    const almost = summaryOf([...Array.from({ length: 1999 }, (_, i) => result(`p/${i}`, "getIndexerSlot", "pass", [])), skippedCase("s/0", "getIndexerSlot")]);
    expect(coverageText(almost)).toBe("1999 of 2000 selected cases run (99.9%)");
  });

  it("run: a profile that fills only some cases ends with the coverage line before the verdict", async () => {
    const { ownerWithManyAccounts: _dropped, ...fixtures } = referenceProfile() as Record<string, unknown>;
    const profile = join(dir, "partial-coverage.json");
    writeFileSync(profile, stringifyJson(fixtures as Json));
    const r = await captured(main, ["run", "--url", indexer().url, "--fixtures", profile, "--case", "accounts-by-owner/*"]);
    expect(r.code).toBe(0);
    const out = lines(r.out.trimEnd());
    expect(out.at(-1)).toBe("VERDICT: CONFORMANT");
    expect(out.at(-2)).toMatch(/^coverage: \d+ of \d+ selected cases run \(\d+\.\d%\): \d+ skipped/);
  }, 60_000);
});
