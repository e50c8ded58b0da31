/**
 * The CLIs from source in a child process, as a user's shell runs them: Node with tsx's loader,
 * not tsx's CLI, which relays a signal only if the child confirms it within 30 ms (a busy machine
 * would fail a test for tsx's reason, not ours). The installed bins are plain node too.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { root } from "./paths.js";

/** Node's arguments that run `photon-conformance ARGS` (or `photon-gen ARGS`) from source. */
export const cliArgs = (args: readonly string[], cli: "conformance" | "gen" = "conformance"): string[] => [
  "--import",
  "tsx/esm",
  "--conditions=photon-indexer-kit-source",
  join(root, "scripts", cli === "gen" ? "dev-gen.mts" : "dev-conformance.mts"),
  ...args,
];

/** The environment of a child: this one's, without the PHOTON_* settings that would change what the CLI does. */
export const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PHOTON_")));

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `photon-conformance ARGS` to its end (killed after `timeoutMs`). */
export function runCli(args: readonly string[], timeoutMs = 60_000): Promise<Exited> {
  const child = spawn(process.execPath, cliArgs(args), { cwd: root, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((done) => child.once("close", (code) => done({ code, stdout, stderr })));
}
