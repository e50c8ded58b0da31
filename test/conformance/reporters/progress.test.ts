/**
 * The console on long work: no line per passing case or exchange; a progress
 * line on a terminal, periodic counts otherwise, each failure as it comes (bounded); `--verbose`
 * lists every case; the verdict line is printed whatever reporters were chosen, and a report on
 * stdout stays whole.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../conformance/cli/main.js";
import type { CaseResult, CaseStatus } from "../../../conformance/results.js";
import { MAX_LISTED_FAILURES, PROGRESS_INTERVAL_MS, progressReporter } from "../../../conformance/reporters/progress.js";
import { parseJson } from "../../../runtime/index.js";
import { captured } from "../../helpers/capture.js";
import { useReferenceIndexer } from "../../helpers/reference.js";
import { useScratch } from "../../helpers/scratch.js";

const dir = useScratch("progress");
const indexer = useReferenceIndexer();

const result = (i: number, status: CaseStatus): CaseResult => ({
  id: `case/${i}`,
  method: "getIndexerSlot",
  description: "d",
  required: true,
  findings: [],
  exchange: null,
  status,
  durationMs: 3,
  ...(status === "notRun" ? { notRun: "interrupted (SIGINT)" } : {}),
});

/** Feeds `statuses` one a second (a fake clock) and returns what was written. */
function feed(statuses: CaseStatus[], options: { tty?: boolean; verbose?: boolean; total?: boolean } = {}): string {
  let t = 0;
  let out = "";
  const progress = progressReporter({
    style: { color: false, tty: options.tty ?? false },
    verbose: options.verbose,
    write: (s) => void (out += s),
    now: () => t,
  });
  statuses.forEach((s, i) => {
    t += 1000;
    progress(result(i, s), i + 1, options.total === false ? undefined : statuses.length);
  });
  progress.finish();
  return out;
}

describe("progress without a terminal", () => {
  it("no line per passing case: counts every 10 s, each failure as it comes, cases not run never listed", () => {
    const statuses: CaseStatus[] = Array.from({ length: 882 }, (_, i) => (i === 5 || i === 600 ? "fail" : i > 870 ? "notRun" : "pass"));
    const lines = feed(statuses).trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("✓"))).toEqual([]);
    expect(lines.filter((l) => l.startsWith("✗"))).toEqual(["✗ case/5 (3 ms)", "✗ case/600 (3 ms)"]);
    const counts = lines.filter((l) => l.startsWith("progress: "));
    expect(counts.length).toBe(Math.floor((882 * 1000) / PROGRESS_INTERVAL_MS));
    expect(counts[0]).toBe("progress: 10/882 cases: 9 passed, 1 failed, 0 warned, 0 skipped (10.0 s)");
    expect(counts.at(-1)).toBe("progress: 880/882 cases: 869 passed, 2 failed, 0 warned, 0 skipped, 9 not run (880.0 s)");
    expect(lines.length).toBe(counts.length + 2);
  });

  it("failures are listed up to a bound, then counted", () => {
    const lines = feed(Array.from({ length: 5000 }, () => "fail" as const)).split("\n");
    expect(lines.filter((l) => l.startsWith("✗")).length).toBe(MAX_LISTED_FAILURES);
    expect(lines).toContain(`(${MAX_LISTED_FAILURES} failures listed; the rest are counted, and the report lists every one)`);
  });

  it("--verbose lists every case (those not run still only counted)", () => {
    const lines = feed(["pass", "fail", "skip", "notRun"], { verbose: true }).trimEnd().split("\n");
    expect(lines).toEqual(["✓ case/0 (3 ms)", "✗ case/1 (3 ms)", "- case/2 (3 ms)"]);
  });
});

describe("progress on a terminal", () => {
  it("one line redrawn in place, throttled, failures printed above it, ended before the report", () => {
    let t = 0;
    const writes: string[] = [];
    const progress = progressReporter({ style: { color: false, tty: true }, write: (s) => void writes.push(s), now: () => t });
    for (let i = 0; i < 1000; i++) progress(result(i, i === 3 ? "fail" : "pass"), i + 1, undefined); // a check: no total, all at once
    expect(writes.length).toBeLessThanOrEqual(3); // the first draw, the failure with a redraw, nothing more within 100 ms
    t = 500;
    progress(result(1000, "pass"), 1001, undefined);
    expect(writes.at(-1)).toBe("\r\x1b[2K1001 cases: 1000 passed, 1 failed, 0 warned, 0 skipped (0.5 s)");
    expect(writes.join("")).toContain("\r\x1b[2K✗ case/3 (3 ms)\n");
    progress.finish();
    expect(writes.at(-1)).toBe("\n");
  });
});

describe("the CLI's console", () => {
  it("run: no ✓ line per case by default, every case with --verbose; the verdict last", async () => {
    const quiet = await captured(main, ["run", "--url", indexer().url, "--case", "slot/*"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toMatch(/^✓ /m);
    expect(quiet.stdout.trimEnd().split("\n").at(-1)).toBe("VERDICT: CONFORMANT");
    const verbose = await captured(main, ["run", "--url", indexer().url, "--case", "slot/*", "--verbose"]);
    expect(verbose.stderr).toMatch(/^✓ slot\/indexer-slot \(\d+ ms\)$/m);
  }, 60_000);

  it("the verdict line is printed with only file reporters, and beside a report on stdout without spoiling it", async () => {
    const file = join(dir, "r.json");
    const files = await captured(main, ["run", "--url", indexer().url, "--case", "slot/*", "--reporter", "json", "--output", file]);
    expect(files.code).toBe(0);
    expect(files.stdout).toMatch(/^\d+ cases: \d+ passed, 0 failed, 0 warned, 0 skipped in [\d.]+ s\nVERDICT: CONFORMANT\n$/);
    expect((parseJson(readFileSync(file, "utf8")) as { verdict: string }).verdict).toBe("CONFORMANT");
    const piped = await captured(main, ["run", "--url", indexer().url, "--case", "slot/*", "--reporter", "json"]);
    expect((parseJson(piped.stdout) as { verdict: string }).verdict).toBe("CONFORMANT");
    expect(piped.stderr.trimEnd().split("\n").at(-1)).toBe("VERDICT: CONFORMANT");
  }, 60_000);

  it("check: a 20,000-line capture prints a handful of lines, not one per exchange", async () => {
    const good = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":301002501,"id":1}}\n`;
    const bad = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":301002501,"id":2}}\n`;
    const capture = join(dir, "capture.jsonl");
    writeFileSync(capture, Array.from({ length: 20_000 }, (_, i) => (i === 7 ? bad : good)).join(""));
    const r = await captured(main, ["check", capture]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/^✓ /m);
    expect(r.stderr).toMatch(/^✗ line-8 /m);
    expect(r.out.split("\n").length).toBeLessThan(60);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("VERDICT: NOT CONFORMANT");
  }, 60_000);
});
