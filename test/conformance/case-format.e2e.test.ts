/**
 * A FIFO named like a case is refused without a blocking read (it would wait for ever), a link
 * to one too, and one swapped in after the directory was read (mkfifo and a child process).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { root as repoRoot } from "../helpers/paths.js";
import { CASE, refusal, useCasesDirs } from "./support/case-dirs.js";

const casesDir = useCasesDirs();

describe("loadCases and FIFOs", () => {
  it("refuses a FIFO named like a case without waiting for a writer", async () => {
    const root = casesDir();
    writeFileSync(join(root, "a.yaml"), CASE);
    execFileSync("mkfifo", [join(root, "pipe.yaml")]);
    const err = await refusal(root);
    expect(err.message).toContain("pipe.yaml");
    expect(err.message).toContain("cannot read the case: not a file");
  });

  it("refuses a link to a FIFO without waiting for a writer", async () => {
    const root = casesDir();
    execFileSync("mkfifo", [join(root, "pipe")]);
    symlinkSync(join(root, "pipe"), join(root, "piped.yaml"));
    const err = await refusal(root);
    expect(err.message).toContain("piped.yaml");
    expect(err.message).toContain("cannot read the case: not a file");
  });
});

describe("a case file swapped for a FIFO after the directory was read", () => {
  it("is refused on the open file, without waiting for a writer (run in a child process: a blocking read could not be interrupted here)", () => {
    const root = casesDir();
    const pipe = join(root, "swapped.yaml");
    execFileSync("mkfifo", [pipe]);
    const module = pathToFileURL(join(repoRoot, "conformance", "case-format.ts")).href;
    // The directory entry said "regular file" (as it did before the swap); the open file says FIFO.
    const script = `const { readCaseFile } = await import(${JSON.stringify(module)});
try { readCaseFile(${JSON.stringify(pipe)}, true); console.log("read"); } catch (e) { console.log(e.message); }`;
    const r = spawnSync(process.execPath, ["--import", "tsx/esm", "--input-type=module", "-e", script], { cwd: repoRoot, encoding: "utf8", timeout: 20_000 });
    expect(r.signal, "the read waited for a writer").toBeNull();
    expect(r.stdout.trim()).toBe(`${pipe}: cannot read the case: not a file`);
  });
});
