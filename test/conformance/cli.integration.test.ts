/**
 * photon-conformance run as an operator uses it: exit codes, reporters written to files,
 * shards, and secrets (api key in the URL, Authorization header) in no byte of any output.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { generateDataset } from "../../reference/index.js";
import { parseJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";
import { editValue, startBroken } from "./support/broken-servers.js";

const dir = useScratch("conformance-cli");
const KEY = "k3y-0f-the-operat0r";
const TOKEN = "t0ken-0f-the-operat0r";
const indexer = useReferenceIndexer();

const run = (...args: string[]) => captured(main, args);

describe("photon-conformance run", () => {
  it("certifies a deployment given by URL, writing every reporter, with secrets nowhere", async () => {
    const url = `${indexer().url}?api-key=${KEY}`;
    const files = { json: join(dir, "r.json"), junit: join(dir, "r.xml"), markdown: join(dir, "r.md"), github: join(dir, "r.txt") };
    const r = await run(
      "run",
      "--url",
      url,
      "--header",
      `Authorization: Bearer ${TOKEN}`,
      "--method",
      "getCompressedTokenAccountsByOwner",
      "--reporter",
      "json",
      "--output",
      files.json,
      "--reporter",
      "junit",
      "--output",
      files.junit,
      "--reporter",
      "markdown",
      "--output",
      files.markdown,
      "--reporter",
      "github",
      "--output",
      files.github,
      "--reporter",
      "console",
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain("VERDICT: CONFORMANT");
    const texts = [r.out, ...Object.values(files).map((f) => readFileSync(f, "utf8"))];
    for (const t of texts) {
      expect(t).not.toContain(KEY);
      expect(t).not.toContain(TOKEN);
    }
    const json = parseJson(readFileSync(files.json, "utf8")) as { passed: boolean; cases: { id: string; checks: unknown[] }[]; target: string };
    expect(json.passed).toBe(true);
    expect(json.target).toContain("api-key=***");
    expect(json.cases.length).toBeGreaterThan(10);
    const junit = readFileSync(files.junit, "utf8");
    expect(junit.match(/<testcase /g)).toHaveLength(json.cases.length);
    const md = readFileSync(files.markdown, "utf8");
    expect(md).toContain("**Verdict: CONFORMANT**");
    expect(md).toMatch(/Spec sha256 \| `[0-9a-f]{64}`/);
    expect(md).toContain("| `getCompressedTokenAccountsByOwner` |");
  }, 60_000);

  it("exits 1 with a reproducible failure on a broken deployment, naming case, check and curl line", async () => {
    const broken = await startBroken(generateDataset(), { wire: editValue((v) => Array.isArray(v.items) && v.items.reverse()) });
    try {
      const r = await run("run", "--url", `${broken.url}?api-key=${KEY}`, "--case", "token-accounts/*", "--reporter", "console");
      expect(r.code).toBe(1);
      expect(r.out).toContain("VERDICT: NOT CONFORMANT");
      expect(r.out).toMatch(/✗ token-accounts\/\S+/);
      expect(r.out).toContain("pagination: ");
      expect(r.out).toMatch(/reproduce: curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/\?api-key=\*\*\*'/);
      expect(r.out).not.toContain(KEY);
    } finally {
      await broken.close();
    }
  }, 60_000);

  it("exits 2 for an unreachable target, unreadable cases or a usage error", async () => {
    const unreachable = await run("run", "--url", `http://127.0.0.1:1/?api-key=${KEY}`);
    expect(unreachable.code).toBe(2);
    expect(unreachable.out).toContain("cannot reach http://127.0.0.1:1/?api-key=***");
    expect(unreachable.out).not.toContain(KEY);
    expect((await run("run", "--url", indexer().url, "--cases", join(dir, "none"))).code).toBe(2);
    expect((await run("run", "--concurrency", "0")).code).toBe(2);
    expect((await run("run", "--reporter", "yaml")).code).toBe(2);
    expect((await run("run", "--fixtures", join(dir, "missing.json"))).code).toBe(2);
  }, 60_000);
});
