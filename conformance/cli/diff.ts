/** `photon-conformance diff --url A --against B`: the same cases to two indexers, every difference reported by JSON path. */
import type { Command } from "commander";
import { diffTargets } from "../compare.js";
import { UsageError } from "../errors.js";
import type { TargetSpec } from "../session.js";
import { loadSpecBundle } from "../spec-bundle.js";
import { decide, INCONCLUSIVE_ID } from "../verdict.js";
import { list, selection, type Invocation } from "./context.js";
import { concurrencyOption, corpusOptions, header, maxInconclusiveOption, maxSkippedOption, reporterOptions, type CorpusFlags } from "./options.js";
import { Reports } from "./reporters.js";

type DiffFlags = CorpusFlags & { url: string; against: string; againstHeader?: Record<string, string> };

export function diffCommand(program: Command, cli: Invocation): void {
  reporterOptions(corpusOptions(program.command("diff")))
    .description("send the same cases to two indexers and report every difference by JSON path")
    .option("--url <url>", "the indexer under test (or PHOTON_URL, or `url` in the config file)")
    .option("--against <url>", "the trusted indexer to compare with (its values are the expected ones); required")
    .option("--against-header <header>", "'Name: value' sent to --against only (repeatable; --header goes to --url only; values never printed)", header)
    .addOption(maxInconclusiveOption())
    .addOption(concurrencyOption())
    .addOption(maxSkippedOption())
    .action(async (flags: DiffFlags, command: Command) => {
      const against = (): TargetSpec => ({ url: flags.against, headers: flags.againstHeader });
      cli.messages = cli.outputRedactor(flags, against());
      const configured = await cli.settle(command, flags);
      cli.messages = cli.outputRedactor(flags, against()); // with the config file's and the environment's values
      const spec = await loadSpecBundle(flags.spec);
      if (flags.list) return void (cli.status = await list(flags, spec, true, [INCONCLUSIVE_ID]));
      if (!flags.url || !flags.against) throw new UsageError("diff needs --url (or PHOTON_URL, or `url` in the config file) and --against");
      const reports = Reports.of(cli.argv, configured);
      await reports.prepare();
      // Each side with its own headers; --discover asks --url only.
      const sides = [
        { url: flags.url, headers: flags.header },
        { url: flags.against, headers: flags.againstHeader ?? {} },
      ];
      const session = await cli.sessionFor(flags, sides, spec);
      try {
        const { redact, discovered } = session;
        const compared = await diffTargets(
          {
            ...selection(flags, session),
            url: flags.url,
            against: flags.against,
            againstHeaders: flags.againstHeader ?? {},
            maxInconclusive: flags.maxInconclusive,
            concurrency: flags.concurrency,
            onResult: reports.progress(redact, flags.verbose),
          },
          session,
        );
        const decided = decide(compared, { maxSkipped: flags.maxSkipped });
        await reports.write(discovered ? { ...decided.summary, discovered } : decided.summary, redact);
        cli.status = decided.exit;
      } finally {
        await session.close();
      }
    });
}
