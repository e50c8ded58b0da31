/**
 * `run` in a child process, as a user's shell runs it: Ctrl-C writes the partial reports and
 * exits 130, and a closed stdout ends the run quietly with its exit code.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startReferenceIndexer } from "../../../reference/serve.js";
import { parseJson } from "../../../runtime/index.js";
import { cliArgs } from "../../helpers/cli.js";
import { root } from "../../helpers/paths.js";
import { useReferenceIndexer } from "../../helpers/reference.js";
import { useScratch } from "../../helpers/scratch.js";

const dir = useScratch("conformance-run-e2e");
const indexer = useReferenceIndexer();

/** The CLI in a child process, from source. */
const child = (args: string[], stdout: "pipe" | "ignore" = "pipe") =>
  spawn(process.execPath, cliArgs(args), {
    cwd: root,
    stdio: ["ignore", stdout, "pipe"],
  });

describe("run in a child process", () => {
  it("Ctrl-C stops the run, writes the partial reports and exits 130: verdict INTERRUPTED, unstarted cases not run, not failed", async () => {
    const slow = await startReferenceIndexer({ port: 0, latencyMs: 150 });
    const report = join(dir, "interrupted.json");
    // --verbose: a line per case, the first of which is the cue to interrupt
    const proc = child(["run", "--url", slow.url, "--concurrency", "1", "--verbose", "--reporter", "console", "--reporter", "json", "--output", report]);
    try {
      let stderr = "";
      let interrupted = false;
      proc.stderr!.on("data", (d: Buffer) => {
        stderr += d.toString();
        if (!interrupted && /^\S+ \S+ \(\d+ ms\)$/m.test(stderr)) {
          interrupted = true;
          proc.kill("SIGINT");
        }
      });
      let stdout = "";
      proc.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
      const [code] = (await once(proc, "exit")) as [number | null];
      expect(stderr).toContain("interrupted: writing the partial reports");
      expect(code).toBe(130);
      // Neither a pass nor a fail: the counts of what ran, the rest counted (not listed) as not run.
      expect(stdout.trimEnd().split("\n").at(-1)).toBe("VERDICT: INTERRUPTED");
      expect(stdout).not.toContain("NOT CONFORMANT");
      expect(stdout).not.toContain("not conformant");
      expect(stdout).toMatch(/^\d+ cases not run \(interrupted \(SIGINT\)/m);
      expect(stdout.split("\n").length).toBeLessThan(60);
      const json = parseJson(readFileSync(report, "utf8")) as {
        verdict: string;
        passed: boolean;
        counts: Record<string, number>;
        methods: { status: string }[];
        cases: { status: string; notRun?: string }[];
      };
      expect(json.verdict).toBe("INTERRUPTED");
      expect(json.passed).toBe(false);
      expect(json.counts.fail).toBe(0);
      expect(json.counts.pass).toBeGreaterThan(0);
      const notRun = json.cases.filter((c) => c.status === "notRun");
      expect(json.counts.notRun).toBe(notRun.length);
      expect(notRun.length).toBeGreaterThan(json.cases.length / 2);
      expect(notRun.every((c) => /^(given up: )?interrupted \(SIGINT\)$/.test(c.notRun ?? ""))).toBe(true);
      expect(json.methods.some((m) => m.status === "not conformant")).toBe(false);
      expect(json.methods.some((m) => m.status === "not run")).toBe(true);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      proc.kill("SIGKILL");
      await slow.close();
    }
  });

  it("ends quietly with the run's exit code when stdout is a closed pipe", async () => {
    const proc = child(["run", "--url", indexer().url, "--case", "http/*", "--reporter", "json"]);
    proc.stdout!.destroy(); // the reader is gone before the first byte, as `| head -0`
    let stderr = "";
    proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(proc, "exit")) as [number | null];
    expect(stderr).not.toContain("EPIPE");
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(0);
  });
});
