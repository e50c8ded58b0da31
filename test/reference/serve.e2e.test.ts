/** `photon-conformance serve` as a process: listening line, free port, clean SIGTERM, bad options. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { createClient } from "../../generated/index.js";
import { cliArgs } from "../helpers/cli.js";
import { root } from "../helpers/paths.js";

describe("photon-conformance serve", () => {
  it("prints `listening on URL` first, serves, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, cliArgs(["serve", "--port", "0", "--seed", "3", "--accounts", "12000"]), {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const lines = createInterface({ input: child.stdout! });
      const [first] = (await once(lines, "line")) as [string];
      const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/)$/.exec(first);
      expect(m, first).not.toBeNull();
      expect(Number(m![2])).toBeGreaterThan(0);
      const slot = await createClient({ url: m![1]! }).getIndexerSlot();
      expect(typeof slot === "number" || typeof slot === "bigint").toBe(true);
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);

  it("refuses a bad option with exit 2", async () => {
    const child = spawn(process.execPath, cliArgs(["serve", "--port", "-1"]), { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain("--port must be an integer");
  }, 30_000);

  it("refuses a URL that is not http(s) with exit 2", async () => {
    const child = spawn(process.execPath, cliArgs(["serve", "--port", "0", "--prover-url", "ftp://prover"]), {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain("--prover-url must be an http:// or https:// URL");
  }, 30_000);
});
