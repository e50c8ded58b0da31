/** `photon-conformance check FILE`: captured traffic (JSON lines of {request, response, status?}) judged offline. */
import type { Command } from "commander";
import { checkFile } from "../offline.js";
import { loadSpecBundle } from "../spec-bundle.js";
import { decide } from "../verdict.js";
import type { Invocation } from "./context.js";
import { collect, reporterOptions, specOption } from "./options.js";
import { Reports } from "./reporters.js";

interface CheckFlags {
  strict?: boolean;
  secret?: string[];
  spec?: string;
  verbose?: boolean;
}

export function checkCommand(program: Command, cli: Invocation): void {
  specOption(reporterOptions(program.command("check")))
    .description("verify captured traffic offline: FILE is JSON lines of {request, response, status?}")
    .argument("<file>", "captured exchanges, one JSON object a line")
    .option("--strict", "fields unknown to the spec fail instead of warn")
    .option("--secret <value>", "a value to mask in every output (repeatable; also PHOTON_SECRETS, one per line)", collect)
    .action(async (file: string, flags: CheckFlags) => {
      const reports = Reports.of(cli.argv);
      const redact = cli.outputRedactor(flags);
      cli.messages = redact;
      const spec = await loadSpecBundle(flags.spec);
      await reports.prepare();
      const summary = await checkFile({ file, strict: flags.strict ?? false, onResult: reports.progress(redact, flags.verbose, "exchanges"), spec });
      const decided = decide(summary);
      await reports.write(decided.summary, redact);
      cli.status = decided.exit;
    });
}
