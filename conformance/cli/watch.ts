/**
 * `photon-conformance watch --url URL`: run's selection run on every `--every` until SIGINT or
 * SIGTERM (the run in flight abandoned, exit 0), serving Prometheus metrics (watch/metrics.ts) at
 * `--metrics-host:--metrics-port/metrics` and keeping certificates in `--report-dir`.
 */
import type { Command } from "commander";
import { ExitStatus } from "@photon-indexer-kit/runtime";
import { UsageError } from "../errors.js";
import { forConsole } from "../reporters/support/escape.js";
import { checkSkipMethods, runSuite } from "../run.js";
import { deadline, formatDuration } from "../pool.js";
import { loadSpecBundle } from "../spec-bundle.js";
import { decide } from "../verdict.js";
import { CertificateDir } from "../watch/certificates.js";
import { serveMetrics } from "../watch/exposition.js";
import { Watcher } from "../watch/watcher.js";
import { NEEDS_SEED_OWNER, SelectionMemo, SESSION_DEFAULTS, sessionSettings, targetOf } from "../session.js";
import { list, selectedCases, type Invocation } from "./context.js";
import { corpusOptions, durationOption, durationText, int, type CorpusFlags } from "./options.js";
import { runWideChecks, suiteOptions, suiteRun } from "./run.js";
import { listenError } from "./serve.js";

/** watch's own settings. */
export const WATCH_DEFAULTS = Object.freeze({ everyMs: 5 * 60_000, metricsPort: 9464, metricsHost: "127.0.0.1", confirm: 2 });

interface WatchFlags extends CorpusFlags {
  every: number;
  metricsPort: number;
  metricsHost: string;
  confirm: number;
  reportDir?: string;
}

export function watchCommand(program: Command, cli: Invocation): void {
  suiteOptions(
    corpusOptions(program.command("watch"))
      .description("run the selection against an indexer on a timer, serving Prometheus metrics, until SIGINT/SIGTERM")
      .option("--url <url>", "indexer endpoint to watch (its query string, e.g. ?api-key=…, is kept and never printed)"),
    "each run's deadline (--discover included); cases left then are not run",
  )
    .addOption(
      durationOption(
        "--every <duration>",
        "from the start of one run to the start of the next (a longer run delays the next)",
        "--every",
        WATCH_DEFAULTS.everyMs,
      ),
    )
    .option("--metrics-port <port>", "port of the metrics endpoint (0 picks a free one)", int("--metrics-port", 0, 65535), WATCH_DEFAULTS.metricsPort)
    .option("--metrics-host <host>", "address the metrics endpoint binds", WATCH_DEFAULTS.metricsHost)
    .option("--confirm <n>", "consecutive failing runs before a method reads 0", int("--confirm", 1, 1000), WATCH_DEFAULTS.confirm)
    .option("--report-dir <dir>", "keep the last run's and the last failing run's certificates here (markdown, HTML, JSON)")
    .action(async (flags: WatchFlags, command: Command) => {
      cli.messages = cli.outputRedactor(flags);
      await cli.settle(command, flags);
      const spec = await loadSpecBundle(flags.spec);
      checkSkipMethods(flags.skipMethod ?? [], spec.methods, spec.spec);
      if (flags.list) {
        cli.status = await list(flags, spec, true, runWideChecks(flags));
        return;
      }
      const url = flags.url;
      if (url === undefined) throw new UsageError("watch needs --url (or PHOTON_URL, or url in the config file): the indexer to watch");
      if (flags.discover && !flags.seedOwner) throw new UsageError(NEEDS_SEED_OWNER); // before anything is served, not at each run
      // The selection is checked once before anything is served: no case matching is a usage error.
      const cases = await selectedCases(flags, spec);
      const certificates = flags.reportDir === undefined ? null : await CertificateDir.open(flags.reportDir);
      const redact = cli.outputRedactor(flags);
      const settings = sessionSettings(flags);
      const maxTime = flags.maxTime ?? SESSION_DEFAULTS.maxTimeMs;
      const target = { url, headers: flags.header };
      const memo = new SelectionMemo(); // the corpus read once, not on every run
      const watcher = new Watcher({
        everyMs: flags.every,
        confirm: flags.confirm,
        table: spec.methods,
        timeoutMs: Math.min(settings.timeoutMs, 5000),
        certificates,
        redact,
        log: (line) => process.stdout.write(`${forConsole(line)}\n`), // a line may quote the target (an unreachable one's error)
        slotTarget: (observe) => targetOf(target, settings, observe),
        run: async (observe, signal) => {
          const started = performance.now();
          const cut = deadline(maxTime, `the run's deadline of ${formatDuration(maxTime)} (--max-time) was reached`, signal);
          const session = await cli.sessionFor(flags, [target], spec, true, { signal: cut.signal, observe, memo }).finally(() => cut.clear());
          try {
            return decide(await runSuite(suiteRun(flags, session, started, signal), session), { maxSkipped: flags.maxSkipped }).summary;
          } finally {
            await session.close();
          }
        },
      });
      const server = await serveMetrics(watcher.metrics.registry, flags.metricsHost, flags.metricsPort).catch((err: NodeJS.ErrnoException) => {
        const usage = listenError(err, flags.metricsHost, flags.metricsPort, "--metrics-port");
        if (usage) throw usage;
        throw err;
      });
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      process.stdout.write(`metrics on ${server.url}\n`);
      const watching = `watching ${url} every ${durationText(flags.every)}: ${cases.length + runWideChecks(flags).length} cases a run; a method reads 0 after ${flags.confirm} failing runs`;
      process.stdout.write(`${forConsole(redact(watching))}\n`); // the URL as given (a config file's, the environment's): control characters escaped
      try {
        await watcher.loop(stop.signal);
      } finally {
        process.removeListener("SIGINT", onSignal);
        process.removeListener("SIGTERM", onSignal);
        await server.close();
      }
      cli.status = ExitStatus.OK;
    });
}
