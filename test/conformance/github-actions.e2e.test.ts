/**
 * The GitHub Actions example (docs/github-actions.yml): the workflow parses and has the
 * structure docs/conformance.md promises, and its own `run:` scripts pass here as they are, in bash,
 * one job per shard: the serve step starts the reference indexer, each shard runs against it
 * and writes JUnit, HTML and markdown reports, and the certificate reaches $GITHUB_STEP_SUMMARY.
 *
 * Only what a runner provides is stood in for: `npx photon-conformance` runs this checkout's
 * CLI from source, `${{ matrix.shard }}` and the secret are filled in, and port 8784 becomes a
 * free one (a developer may be serving on 8784).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { freePort } from "../helpers/listener.js";
import { root } from "../helpers/paths.js";

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
}
interface Workflow {
  readonly on: Record<string, unknown>;
  readonly jobs: Record<
    string,
    { "runs-on": string; strategy: { "fail-fast": boolean; matrix: { shard: number[] } }; env: Record<string, string>; steps: Step[] }
  >;
}

const workflow = parse(readFileSync(join(root, "docs", "github-actions.yml"), "utf8")) as Workflow;
const job = workflow.jobs.conformance!;
const stepRunning = (text: string) => job.steps.find((s) => s.run?.includes(text));

describe("docs/github-actions.yml", () => {
  it("is a sharded job that starts the target, runs the suite and uploads JUnit and HTML", () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(["push", "pull_request"]));
    expect(job["runs-on"]).toBe("ubuntu-latest");
    expect(job.strategy.matrix.shard).toEqual([1, 2, 3]);
    expect(job.strategy["fail-fast"]).toBe(false);
    expect(job.env.PHOTON_URL).toBe("${{ secrets.PHOTON_URL }}");
    const uses = job.steps.flatMap((s) => (s.uses ? [s.uses.split("@")[0]] : []));
    expect(uses).toEqual(["actions/checkout", "actions/setup-node", "actions/upload-artifact"]);
    expect(stepRunning("photon-conformance serve --port 8784 ")?.if).toBe("env.PHOTON_URL == ''");
    const run = stepRunning("photon-conformance run")!.run!;
    expect(run).toContain('--url "$PHOTON_URL" --shard ${{ matrix.shard }}/3');
    expect(run).toMatch(/--reporter junit --output reports\/junit-\$\{\{ matrix\.shard \}\}\.xml/);
    expect(run).toMatch(/--reporter html --output reports\/report-\$\{\{ matrix\.shard \}\}\.html/);
    const upload = job.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
    expect(upload.if).toBe("always()");
    expect(upload.with?.path).toBe("reports/");
  });
});

function caseIds(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/\.ya?ml$/.test(e.name))
        out.push(
          relative(dir, join(d, e.name))
            .replace(/\.ya?ml$/, "")
            .split(sep)
            .join("/"),
        );
    }
  };
  walk(dir);
  return out.sort();
}

describe("the workflow's commands, run here", () => {
  const work = mkdtempSync(join(tmpdir(), "gha-"));
  const bin = join(work, "bin");
  const githubEnv = join(work, "github-env");
  const stepSummary = join(work, "step-summary.md");
  let port: number;
  let serve: ChildProcess | undefined;

  /** A step's script as the runner would run it, for shard `shard`. */
  const script = (step: Step, shard: number) => step.run!.replaceAll("${{ matrix.shard }}", String(shard)).replaceAll("8784", String(port));
  const env = (extra: Record<string, string> = {}) => ({
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    GITHUB_ACTIONS: "true",
    GITHUB_ENV: githubEnv,
    GITHUB_STEP_SUMMARY: stepSummary,
    PHOTON_URL: "",
    NO_COLOR: "1",
    ...extra,
  });

  beforeAll(async () => {
    port = await freePort();
    spawnSync("mkdir", ["-p", bin]);
    // `npx photon-conformance …`: this checkout's CLI, from source.
    writeFileSync(
      join(work, "cli.mjs"),
      `import { main } from ${JSON.stringify(pathToFileURL(join(root, "conformance", "cli", "main.ts")).href)};\nprocess.exitCode = await main(process.argv.slice(2));\n`,
    );
    writeFileSync(
      join(bin, "npx"),
      `#!/bin/sh\n[ "$1" = photon-conformance ] || { echo "npx $1: not stood in for" >&2; exit 127; }\nshift\nexec node --import ${JSON.stringify(pathToFileURL(join(root, "node_modules", "tsx", "dist", "esm", "index.mjs")).href)} --conditions=source ${JSON.stringify(join(work, "cli.mjs"))} "$@"\n`,
    );
    chmodSync(join(bin, "npx"), 0o755);
    writeFileSync(githubEnv, "");
    writeFileSync(stepSummary, "");
  });
  afterAll(() => {
    if (serve?.pid) process.kill(-serve.pid, "SIGTERM"); // the server started in the background
    rmSync(work, { recursive: true, force: true });
  });

  it("the serve step starts the reference indexer and exports PHOTON_URL; each shard passes and writes its reports", async () => {
    const start = stepRunning("photon-conformance serve")!;
    serve = spawn("bash", ["-e", "-c", script(start, 1)], { cwd: work, env: env(), detached: true, stdio: "ignore" });
    const code = await new Promise<number | null>((resolve) => serve!.on("exit", resolve));
    expect(code, readFileSync(join(work, "serve.log"), "utf8")).toBe(0);
    expect(readFileSync(githubEnv, "utf8")).toBe(`PHOTON_URL=http://127.0.0.1:${port}/\n`);
    const url = `http://127.0.0.1:${port}/`;

    const names: string[] = [];
    const runStep = stepRunning("photon-conformance run")!;
    for (const shard of job.strategy.matrix.shard) {
      const r = spawnSync("bash", ["-e", "-c", script(runStep, shard)], {
        cwd: work,
        env: env({ PHOTON_URL: url }),
        encoding: "utf8",
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^::notice title=photon-conformance::VERDICT: CONFORMANT/m);
      const junit = readFileSync(join(work, "reports", `junit-${shard}.xml`), "utf8");
      expect(junit).toContain('<property name="verdict" value="CONFORMANT"/>');
      expect(junit).toContain(`<property name="selection" value="shard ${shard}/3"/>`);
      names.push(...[...junit.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]!));
      expect(readFileSync(join(work, "reports", `report-${shard}.html`), "utf8")).toContain("<h1>VERDICT: CONFORMANT</h1>");
      expect(existsSync(join(work, "reports", `certificate-${shard}.md`))).toBe(true);
    }
    // The shards add up to the whole corpus, each case in exactly one (run-wide cases aside).
    const corpus = caseIds(join(root, "conformance", "cases"));
    expect(names.filter((n) => corpus.includes(n)).sort()).toEqual(corpus);
    expect(new Set(names).size).toBe(names.length);
    // Each shard's certificate reached the job's summary page.
    expect(readFileSync(stepSummary, "utf8").match(/^# Conformance certificate$/gm)).toHaveLength(3);
  }, 300_000);
});
