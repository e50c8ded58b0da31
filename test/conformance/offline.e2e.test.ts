/** `check FILE` refuses a FIFO without opening it (that would wait for a writer): exit 2, naming it. */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { captured } from "../helpers/capture.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("check-fifo");

describe("check FILE", () => {
  it("a FIFO exits 2 naming the file, never waiting for a writer", async () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const r = await captured(main, ["check", fifo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("fifo: cannot read the captured traffic: not a file");
    expect(r.stderr).not.toContain("unexpected error");
  });
});
