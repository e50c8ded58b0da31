/**
 * An --output where Node's recursive mkdir would loop for ever (/proc on Linux answers ENOENT)
 * is a usage error at once, checked on the CLI in a child process that is killed if it spins.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { cliArgs } from "../helpers/cli.js";
import { root } from "../helpers/paths.js";

const UNREACHABLE = "http://127.0.0.1:1/";

/** The CLI in a child process, from source, killed after `ms`: its exit code (null when it had to be killed) and stderr. */
async function child(args: string[], ms: number): Promise<{ code: number | null; stderr: string }> {
  const proc = spawn(process.execPath, cliArgs(args), {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => proc.kill("SIGKILL"), ms);
  const [code] = (await once(proc, "exit")) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}

describe("outputs that cannot be written", () => {
  it.skipIf(process.platform !== "linux")("a folder under /proc is a usage error at once for run, never a spin", async () => {
    // In a child process, killed if it spins.
    const spun = await child(["run", "--url", UNREACHABLE, "--reporter", "junit", "--output", "/proc/x/y.xml"], 60_000);
    expect(spun.code).toBe(2);
    expect(spun.stderr).toBe("photon-conformance: cannot write --output /proc/x/y.xml: no folder can be created there\n");
  });
});
