/**
 * `run` from the command line, in-process: honest selections (`no case matches`), --list,
 * --version, --max-failures, --max-skipped, unwritable --output and two reports on stdout.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCases } from "../../../conformance/case-format.js";
import { deriveCases, withDerived } from "../../../conformance/derive.js";
import { main } from "../../../conformance/cli/main.js";
import { selectCases, selectsRunWide } from "../../../conformance/run.js";
import { main as genMain } from "../../../generator/cli.js";
import { parseJson, stringifyJson } from "../../../runtime/index.js";
import { captured } from "../../helpers/capture.js";
import { root } from "../../helpers/paths.js";
import { useReferenceIndexer } from "../../helpers/reference.js";
import { useScratch } from "../../helpers/scratch.js";

const dir = useScratch("conformance-control");
const UNREACHABLE = "http://127.0.0.1:1/";
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const indexer = useReferenceIndexer();
const run = (...args: string[]) => captured(main, args);
const referenceFixtures = () => parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as Record<string, never>;

describe("honest selections", () => {
  it("exits 2 with `no case matches` (and what was asked), or `not a method of the spec`, for run, diff and record, never CONFORMANT", async () => {
    for (const args of [
      ["run", "--url", indexer().url, "--case", "nonexistent/*"],
      ["run", "--url", indexer().url, "--method", "getFoo"],
      ["run", "--method", "getFoo"],
      ["diff", "--url", indexer().url, "--against", indexer().url, "--case", "nonexistent/*"],
      ["record", "--url", indexer().url, "--out", join(dir, "never"), "--method", "getFoo"],
    ]) {
      const r = await run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toMatch(/no case matches --case 'nonexistent\/\*'|--method getFoo is not a method of the spec/);
      expect(r.out).not.toContain("CONFORMANT");
    }
    expect(existsSync(join(dir, "never"))).toBe(false);
  });

  it("--list prints the selected cases with their method and exits 0 without contacting the target", async () => {
    const r = await run("run", "--url", UNREACHABLE, "--case", "token-balances/*", "--list");
    expect(r.code).toBe(0);
    // the CLI's selections hold the spec-derived cases too (derive.ts)
    const all = withDerived(await loadCases(join(root, "conformance", "cases"), referenceFixtures()), deriveCases(referenceFixtures()));
    const expected = selectCases(all, { caseGlobs: ["token-balances/*"] });
    const lines = r.out.trimEnd().split("\n");
    expect(lines.map((l) => l.split(/\s+/))).toEqual(expected.map((c) => [c.id, c.method]));
    const shard = await run("run", "--url", UNREACHABLE, "--shard", "1/2", "--list");
    expect(shard.code).toBe(0);
    // The run-wide slot-order result is listed in the shard that counts it (cli-help.test.ts).
    const wide = selectsRunWide({ shard: { index: 1, total: 2 } }) ? 1 : 0;
    expect(shard.out.trimEnd().split("\n").length).toBe(selectCases(all, { shard: { index: 1, total: 2 } }).length + wide);
    // diff runs the derived cases too; record does not (their expectations are the spec's, not a deployment's)
    const handWritten = await loadCases(join(root, "conformance", "cases"), referenceFixtures());
    for (const [command, corpus, runWide] of [
      [["diff", "--against", UNREACHABLE], all, ["diff/inconclusive"]],
      [["record", "--out", join(dir, "never")], handWritten, []],
    ] as const) {
      const listed = await run(...command, "--url", UNREACHABLE, "--method", "getIndexerSlot", "--list");
      expect(listed.code).toBe(0);
      expect(
        listed.out
          .trimEnd()
          .split("\n")
          .map((l) => l.split(/\s+/)[0]),
      ).toEqual([...selectCases(corpus, { methods: ["getIndexerSlot"] }).map((c) => c.id), ...runWide]);
    }
  });

  it("--version prints the package version on both bins", async () => {
    for (const m of [main, genMain]) {
      const r = await captured(m, ["--version"]);
      expect(r.code).toBe(0);
      expect(r.out.trim()).toBe(version);
    }
  });
});

describe("verdicts a run can be held to", () => {
  it("--max-failures N stops starting cases after N failures; the rest are reported as not run, exit 1", async () => {
    const broken: Server = createServer((req, res) => (req.resume(), res.writeHead(500, { "content-type": "text/plain" }).end("boom")));
    await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve));
    try {
      const report = join(dir, "fail-fast.json");
      const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/`;
      const r = await run("run", "--url", url, "--case", "account/*", "--concurrency", "1", "--max-failures", "2", "--reporter", "json", "--output", report);
      expect(r.code).toBe(1);
      const json = parseJson(readFileSync(report, "utf8")) as {
        verdict: string;
        counts: Record<string, number>;
        cases: { id: string; status: string; notRun?: string }[];
      };
      // One notion of "not run": its own status and reason, neither a failure nor a skip.
      const notRun = json.cases.filter((c) => c.status === "notRun");
      expect(notRun.every((c) => c.notRun === "2 cases had failed (--max-failures 2)")).toBe(true);
      expect(json.cases.length - notRun.length).toBe(2);
      expect(notRun.length).toBeGreaterThan(3);
      expect(json.counts).toMatchObject({ fail: 2, notRun: notRun.length });
      expect(json.verdict).toBe("NOT CONFORMANT");
      // only a file report: the closing lines are printed all the same
      expect(r.out).toContain(`${notRun.length} cases not run (2 cases had failed (--max-failures 2))`);
      expect(r.out.trimEnd().split("\n").at(-1)).toBe("VERDICT: NOT CONFORMANT");
    } finally {
      broken.closeAllConnections();
      await new Promise((resolve) => broken.close(resolve));
    }
  }, 30_000);

  it("--max-skipped N or N% fails a run that skipped more cases than that", async () => {
    const { ownerWithManyAccounts: _dropped, ...fixtures } = referenceFixtures();
    const profile = join(dir, "partial.json");
    writeFileSync(profile, stringifyJson(fixtures));
    const base = ["run", "--url", indexer().url, "--fixtures", profile, "--case", "accounts-by-owner/*"];
    const strict = await run(...base, "--max-skipped", "0");
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/✗ run\/max-skipped/);
    expect(strict.out).toMatch(/\d+ of \d+ cases were skipped, more than --max-skipped 0 allows/);
    expect(strict.out).toContain("VERDICT: NOT CONFORMANT");
    const lenient = await run(...base, "--max-skipped", "100%");
    expect(lenient.code).toBe(0);
    expect((await run(...base, "--max-skipped", "150%")).code).toBe(2);
  }, 30_000);

  it("--max-skipped does not count the cases of opted-out methods, and a run of only those says so", async () => {
    // getCompressedAccount's cases opted out, accounts-by-owner's all filled: nothing skipped for want of fixtures.
    const base = ["run", "--url", indexer().url, "--case", "account/*", "--case", "accounts-by-owner/*", "--skip-method", "getCompressedAccount"];
    const mixed = await run(...base, "--max-skipped", "0");
    expect(mixed.out).not.toMatch(/run\/max-skipped/);
    expect(mixed.out).toMatch(/getCompressedAccount: skipped/);
    expect(mixed.code).toBe(0);
    const only = await run("run", "--url", indexer().url, "--case", "account/*", "--skip-method", "getCompressedAccount");
    expect(only.code).toBe(2);
    expect(only.stderr).toContain("the methods of every selected case are opted out (--skip-method), so nothing was run");
  }, 30_000);
});

describe("usage errors, never a stack trace", () => {
  it("checks every --output before the suite runs, creating missing folders", async () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "");
    const blocked = await run("run", "--url", UNREACHABLE, "--reporter", "json", "--output", join(blocker, "r.json"));
    expect(blocked.code).toBe(2);
    expect(blocked.out).toBe(`photon-conformance: cannot write --output ${join(blocker, "r.json")}: a parent of it is a file, not a folder\n`);
    const folder = await run("run", "--url", UNREACHABLE, "--reporter", "junit", "--output", dir);
    expect(folder.code).toBe(2);
    expect(folder.out).toContain("it is a folder");
    const nested = join(dir, "deep", "er", "r.xml");
    const made = await run("run", "--url", indexer().url, "--case", "slot/*", "--reporter", "junit", "--output", nested);
    expect(made.code).toBe(0);
    expect(readFileSync(nested, "utf8")).toContain("<testsuites");
  }, 30_000);

  it("refuses two reports on stdout", async () => {
    const r = await run("run", "--url", UNREACHABLE, "--reporter", "json", "--reporter", "junit");
    expect(r.code).toBe(2);
    expect(r.out).toContain("--reporter json and --reporter junit would both write to stdout");
    expect((await run("run", "--url", indexer().url, "--case", "slot/*", "--reporter", "console", "--reporter", "json")).code).toBe(0);
  });
});
