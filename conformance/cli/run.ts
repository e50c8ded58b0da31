/** `photon-conformance run`: replay the corpus against an indexer (default: the embedded reference) and certify it. */
import type { Command } from "commander";
import type { ExitStatusValue } from "@photon-indexer-kit/runtime";
import type { ConfigReporter } from "../config.js";
import { ConfErrorCode, ConformanceError } from "../errors.js";
import { fixturesSaver, saveFixturesOption } from "../fixtures-save.js";
import { checkSkipMethods, runSuite, selectsRunWide, SLOT_ORDER_ID, type RunOptions } from "../run.js";
import { deadline, formatDuration } from "../pool.js";
import { SESSION_DEFAULTS, type Session } from "../session.js";
import { loadSpecBundle, type SpecBundle } from "../spec-bundle.js";
import { decide } from "../verdict.js";
import { list, selection, type Invocation } from "./context.js";
import { collect, concurrencyOption, corpusOptions, durationOption, int, maxSkippedOption, reporterOptions, shard, type CorpusFlags } from "./options.js";
import { Reports } from "./reporters.js";

/** The options of one run of the selection, run's and watch's: how it is sent, judged and bounded (`maxTime`: what --max-time bounds). */
export const suiteOptions = (command: Command, maxTime: string) =>
  command
    .addOption(concurrencyOption())
    .option("--strict", "fields unknown to the spec fail instead of warn")
    .option("--max-rps <n>", "requests per second at most", int("--max-rps", 1))
    .addOption(durationOption("--max-time <duration>", maxTime, "--max-time", SESSION_DEFAULTS.maxTimeMs))
    .addOption(
      durationOption("--case-time <duration>", "one case's deadline, all its requests (walks included) together", "--case-time", SESSION_DEFAULTS.caseTimeMs),
    )
    .option("--max-failures <n>", "after N failed cases start no more; the rest are reported as not run", int("--max-failures", 1))
    .addOption(maxSkippedOption())
    .option(
      "--skip-method <name>",
      "opt a method (or alias) out: its cases are not run and not serving it does not fail the verdict; the certificate names it (repeatable; the spec's x-registered: false methods are opted out by default)",
      collect,
    );

/** runSuite's options for a session of run's (or watch's) flags; `started`: when --max-time began counting. */
export const suiteRun = (flags: CorpusFlags, session: Session, started: number, signal: AbortSignal, onResult?: RunOptions["onResult"]): RunOptions => ({
  ...selection(flags, session),
  url: session.urls[0]!,
  concurrency: flags.concurrency,
  strict: flags.strict ?? false,
  maxRps: flags.maxRps ?? null,
  shard: flags.shard ?? null,
  maxTimeMs: flags.maxTime,
  since: started,
  caseTimeMs: flags.caseTime,
  maxFailures: flags.maxFailures,
  skipMethods: flags.skipMethod ?? [],
  signal,
  onResult,
});

/** The run-wide checks a selection runs after its cases (listed and counted as cases are). */
export const runWideChecks = (flags: CorpusFlags): string[] =>
  selectsRunWide({ methods: flags.method, caseGlobs: flags.case, shard: flags.shard }) ? [SLOT_ORDER_ID] : [];

export function runCommand(program: Command, cli: Invocation): void {
  suiteOptions(
    saveFixturesOption(reporterOptions(corpusOptions(program.command("run"))))
      .description("replay the conformance cases against an indexer (default: the embedded reference indexer)")
      .option("--url <url>", "indexer endpoint (its query string, e.g. ?api-key=…, is kept and never printed)"),
    "the whole command's deadline (--discover included); cases left then are not run, and the reports are written",
  )
    .option("--shard <i/n>", "run the I-th of N stable slices of the cases", shard)
    .action(async (flags: CorpusFlags, command: Command) => {
      const started = performance.now();
      cli.messages = cli.outputRedactor(flags);
      const configured = await cli.settle(command, flags);
      const spec = await loadSpecBundle(flags.spec); // a bad spec or an unknown version is a usage error (exit 2) before anything runs
      checkSkipMethods(flags.skipMethod ?? [], spec.methods, spec.spec); // so is an unknown name
      cli.status = flags.list ? await list(flags, spec, true, runWideChecks(flags)) : await run(cli, flags, configured, spec, started);
    });
}

/** `started`: when the command began (`performance.now()`); --max-time counts from it, so it bounds --discover too. */
async function run(
  cli: Invocation,
  flags: CorpusFlags,
  configured: readonly ConfigReporter[] | undefined,
  spec: SpecBundle,
  started: number,
): Promise<ExitStatusValue> {
  const reports = Reports.of(cli.argv, configured);
  await reports.prepare();
  const saveProfile = await fixturesSaver(flags);
  // No --url: the session serves the embedded reference indexer, once the cases are selected.
  const maxTime = flags.maxTime ?? SESSION_DEFAULTS.maxTimeMs;
  const cut = deadline(Math.max(0, maxTime - (performance.now() - started)), `the run's deadline of ${formatDuration(maxTime)} (--max-time) was reached`);
  const session = await cli.sessionFor(flags, [{ url: flags.url, headers: flags.header }], spec, true, { signal: cut.signal }).finally(() => cut.clear());
  const { redact, discovered } = session;
  // Ctrl-C: no case starts after it, the ones in flight are given up, the partial reports are written.
  // A second Ctrl-C finds no handler and ends the process at once.
  const interrupt = new AbortController();
  const onInterrupt = () => {
    process.stderr.write("\nphoton-conformance: interrupted: writing the partial reports (Ctrl-C again to quit at once)\n");
    interrupt.abort(new ConformanceError(ConfErrorCode.INTERRUPTED, "interrupted (SIGINT)"));
  };
  process.once("SIGINT", onInterrupt);
  try {
    await saveProfile(session.fixtures, redact);
    const ran = await runSuite(suiteRun(flags, session, started, interrupt.signal, reports.progress(redact, flags.verbose)), session);
    const decided = decide(ran, { maxSkipped: flags.maxSkipped, refuseAllSkipped: true });
    await reports.write(discovered ? { ...decided.summary, discovered } : decided.summary, redact);
    if (decided.refusal !== null) process.stderr.write(`photon-conformance: ${decided.refusal}\n`);
    return decided.exit;
  } finally {
    process.removeListener("SIGINT", onInterrupt);
    await session.close();
  }
}
