/**
 * Outputs a command cannot write are usage errors (exit 2) before anything runs: every
 * reporter's --output (diff, check), record's --out and cases derive's --out.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { captured } from "../helpers/capture.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("conformance-outputs");
const UNREACHABLE = "http://127.0.0.1:1/";
const run = (...args: string[]) => captured(main, args);

describe("outputs that cannot be written", () => {
  it.skipIf(process.platform !== "linux")("a folder under /proc is a usage error at once for diff, check, record and cases derive", async () => {
    const capture = join(dir, "capture.jsonl");
    writeFileSync(capture, "");
    for (const [args, flag] of [
      [["diff", "--url", UNREACHABLE, "--against", UNREACHABLE, "--reporter", "json", "--output", "/proc/x/y.json"], "--output /proc/x/y.json"],
      [["check", capture, "--reporter", "html", "--output", "/proc/x/y.html"], "--output /proc/x/y.html"],
      [["record", "--url", UNREACHABLE, "--out", "/proc/x/recorded"], "--out /proc/x/recorded"],
      [["cases", "derive", "--out", "/proc/x/derived"], "--out /proc/x/derived"],
    ] as const) {
      const r = await run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toBe(`photon-conformance: cannot write ${flag}: no folder can be created there\n`);
    }
  });

  it("record --out: a file, or a folder under a file, is a usage error; a folder checked is not left behind", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const isFile = await run("record", "--url", UNREACHABLE, "--out", file);
    expect(isFile.code).toBe(2);
    expect(isFile.out).toBe(`photon-conformance: cannot write --out ${file}: it is a file, not a folder\n`);
    const under = await run("record", "--url", UNREACHABLE, "--out", join(file, "rec"));
    expect(under.code).toBe(2);
    expect(under.out).toBe(`photon-conformance: cannot write --out ${join(file, "rec")}: a parent of it is a file, not a folder\n`);
    // Writable, then the target is unreachable: nothing was recorded, so no folder was made.
    const fresh = join(dir, "new", "rec");
    const unreachable = await run("record", "--url", UNREACHABLE, "--out", fresh);
    expect(unreachable.code).toBe(2);
    expect(unreachable.out).toContain("cannot reach");
    expect(existsSync(join(dir, "new"))).toBe(false);
    const derive = await run("cases", "derive", "--out", join(file, "derived"));
    expect(derive.code).toBe(2);
    expect(derive.out).toContain(`cannot write --out ${join(file, "derived")}: a parent of it is a file, not a folder`);
  }, 30_000);
});
