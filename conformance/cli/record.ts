/** `photon-conformance record --url URL --out DIR`: a live indexer's answers written into the case files. */
import type { Command } from "commander";
import { stringifyJson } from "@photon-indexer-kit/runtime";
import { UsageError } from "../errors.js";
import { checkOutputFolder } from "../outputs.js";
import { changeCounts, recordCases, renderChanges } from "../record.js";
import { forConsole } from "../reporters/support/escape.js";
import { loadSpecBundle } from "../spec-bundle.js";
import { decide } from "../verdict.js";
import { list, selection, type Invocation } from "./context.js";
import { corpusOptions, type CorpusFlags } from "./options.js";

export function recordCommand(program: Command, cli: Invocation): void {
  corpusOptions(program.command("record"))
    .description("send every case to a live indexer and write its answers into the case files")
    .option("--url <url>", "the indexer to record from (its query string is never written); or PHOTON_URL, or `url` in the config file")
    .option("--out <dir>", "where the recorded case files go (may be the corpus itself); changes are reported against the files already there; required")
    .action(async (flags: CorpusFlags & { url: string; out: string }, command: Command) => {
      cli.messages = cli.outputRedactor(flags);
      await cli.settle(command, flags);
      const spec = await loadSpecBundle(flags.spec);
      // Spec-derived cases are not recorded: their expectations are the spec's, they have no file (`cases derive` writes them).
      if (flags.list) return void (cli.status = await list(flags, spec, false));
      if (!flags.url || !flags.out) throw new UsageError("record needs --url (or PHOTON_URL, or `url` in the config file) and --out DIR");
      await checkOutputFolder(flags.out);
      const session = await cli.sessionFor(flags, [{ url: flags.url, headers: flags.header }], spec, false);
      try {
        const { redact, discovered } = session;
        if (discovered) process.stdout.write(`discovered fixtures: ${forConsole(redact(stringifyJson(discovered)))}\n`);
        const changes = await recordCases({ ...selection(flags, session), url: flags.url, out: flags.out, secrets: cli.extraSecrets(flags) }, session);
        process.stdout.write(redact(renderChanges(changes, redact)));
        cli.status = decide(changeCounts(changes)).exit;
      } finally {
        await session.close();
      }
    });
}
