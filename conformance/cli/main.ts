/**
 * photon-conformance: certify an indexer against the spec, or serve the reference indexer.
 *   run   [--url URL] [options]   exit 0 conformant, 1 not, 2 usage / unreadable cases / unreachable target
 *   serve [--host H] [--port P] [--dataset FILE | --seed N --accounts N] [--rate-limit N] [--latency MS] [--live MS [--lag N]]
 *   cases derive [--out DIR]     write the spec-derived cases (derive.ts) as YAML files for review
 *   watch --url URL [--every 5m] [--metrics-port 9464]   run on a timer, serving Prometheus metrics, until SIGINT/SIGTERM (exit 0)
 * run, diff, record, check and cases derive take `--spec VERSION|FILE` (spec-bundle.ts): the interface judged against.
 * Settings also come from a config file and the environment (conformance/config.ts); flags win.
 * A run interrupted by Ctrl-C writes its partial reports and exits 130.
 */
import { Command } from "commander";
import { exitFor } from "../../cli/exit.js";
import { ConfigError } from "../errors.js";
import { packageVersion } from "../paths.js";
import { forConsole } from "../reporters/support/escape.js";
import { casesCommand } from "./cases.js";
import { checkCommand } from "./check.js";
import { Invocation } from "./context.js";
import { diffCommand } from "./diff.js";
import { argvRedactor } from "./options.js";
import { recordCommand } from "./record.js";
import { runCommand } from "./run.js";
import { serveCommand } from "./serve.js";
import { watchCommand } from "./watch.js";

let pipesQuiet = false;

/** A reader that went away (`| head -1`) ends nothing: the rest of the output is dropped and the exit code stays the run's. */
function quietPipes(): void {
  if (pipesQuiet) return;
  pipesQuiet = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE") throw err;
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  quietPipes();
  const program = new Command("photon-conformance")
    .description("Conformance suite for Photon-style compressed-account indexers")
    .version(packageVersion)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(argvRedactor(argv)(s)) });
  const cli = new Invocation(argv, program);
  runCommand(program, cli);
  diffCommand(program, cli);
  recordCommand(program, cli);
  casesCommand(program, cli);
  checkCommand(program, cli);
  watchCommand(program, cli);
  serveCommand(program);

  try {
    await program.parseAsync(argv, { from: "user" });
    return cli.status;
  } catch (err) {
    const exit = exitFor(err); // cli/exit.ts: the status each code carries
    if (exit.printed) return exit.status; // commander printed it
    // Redacted, then each kept on its line (a message may quote a target's answer or a file's text); a config's problems one a line.
    const lines = err instanceof ConfigError ? err.problems : [err instanceof Error ? err.message : String(err)];
    const prefix = exit.expected ? "photon-conformance: " : "photon-conformance: unexpected error: ";
    process.stderr.write(lines.map((line) => `${prefix}${forConsole(cli.messages(line))}\n`).join(""));
    return exit.status;
  }
}
