/**
 * photon-conformance: certify an indexer against the spec, or serve the reference indexer.
 *   run   [--url URL] [options]   exit 0 conformant, 1 not, 2 usage / unreadable cases / unreachable target
 *   serve [--host H] [--port P] [--dataset FILE | --seed N --accounts N] [--rate-limit N] [--latency MS] [--live MS [--lag N]]
 *   cases derive [--out DIR]     write the spec-derived cases (derive.ts) as YAML files for review
 * run, diff, record, check and cases derive take `--spec VERSION|FILE` (spec-bundle.ts): the interface judged against.
 * Settings also come from a config file and the environment (conformance/config.ts); flags win.
 * A run interrupted by Ctrl-C writes its partial reports and exits 130.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command, Option } from "commander";
import { secretsFromEnv, secretsOf, stringifyJson, type Redactor } from "@photon-indexer-kit/runtime";
import { MIN_ACCOUNTS } from "../reference/dataset.js";
import { MAX_INTERVAL_MS, MAX_LAG, startReferenceIndexer } from "../reference/serve.js";
import { checkFile } from "./offline.js";
import { diffTargets } from "./compare.js";
import { decide, INCONCLUSIVE_ID, type Budget } from "./verdict.js";
import { applySettings, loadConfig, settingsFromEnv, type ConfigReporter, type Settings } from "./config.js";
import { ConfErrorCode, ConfigError, ConformanceError, UsageError } from "./errors.js";
import { exitFor, ExitStatus, type ExitStatusValue } from "../cli/exit.js";
import { casesDir, readFixtures, referenceFixturesFile } from "./fixtures.js";
import { fixturesSaver, saveFixturesOption } from "./fixtures-save.js";
import { checkOutputFolder, prepareOutputFile } from "./outputs.js";
import { changeCounts, recordCases, renderChanges } from "./record.js";
import type { RunSummary } from "./results.js";
import { packageVersion } from "./paths.js";
import { closingLines, consoleStyle } from "./reporters/console.js";
import { progressReporter, type Progress } from "./reporters/progress.js";
import { render, reporterNames, type ReporterName } from "./reporters/index.js";
import { checkSkipMethods, runSuite, selectsRunWide, SLOT_ORDER_ID } from "./run.js";
import { RUN_WIDE_ROW } from "./reporters/support/stats.js";
import { deadline, formatDuration, loadSelection, openSession, redactorFor, SESSION_DEFAULTS, type Session, type TargetSpec } from "./session.js";
import { forConsole } from "./reporters/support/escape.js";
import { DERIVED_PREFIX, writeDerived } from "./derive.js";
import { bundledVersions, defaultSpec, loadSpecBundle, type SpecBundle } from "./spec-bundle.js";
import { argvRedactor, checkUrl, collect, durationOption, header, int, reporterPairs, shard, skipLimit } from "./cli-options.js";
import { maxInconclusiveOption } from "./cli-options.js";

export { argvRedactor, checkUrl, durationText, maskTyped, reporterPairs } from "./cli-options.js";

/** `serve`'s options as commander parses them. */
interface ServeFlags {
  host: string;
  port: number;
  dataset?: string;
  seed: number;
  accounts?: number;
  rateLimit?: number;
  latency?: number;
  proverUrl?: string;
  live?: number;
  lag?: number;
}

interface RunFlags {
  url?: string;
  config?: string;
  list?: boolean;
  maxFailures?: number;
  skipMethod?: string[];
  maxSkipped?: Budget;
  method?: string[];
  case?: string[];
  concurrency: number;
  timeout: number;
  header?: Record<string, string>;
  fixtures?: string;
  cases: string;
  strict?: boolean;
  maxRps?: number;
  shard?: { index: number; total: number };
  discover?: boolean;
  seedOwner?: string;
  secret?: string[];
  maxTime?: number;
  caseTime?: number;
  spec?: string;
  verbose?: boolean;
  /** diff: required cases allowed to stay inconclusive. */
  maxInconclusive?: Budget;
}

/** The config file's and the environment's credentials, known as soon as they are read (settle), before any is checked. */
let settingSecrets: readonly string[] = [];
/** Values to mask besides the targets' credentials and header values: each `--secret`, each line of PHOTON_SECRETS, the `--spec` URL's credentials and the settings'. */
const extraSecrets = (flags: Pick<RunFlags, "secret" | "spec">): string[] => [
  ...(flags.secret ?? []),
  ...secretsFromEnv(),
  ...(flags.spec ? secretsOf(flags.spec) : []),
  ...settingSecrets,
];

/**
 * The one redactor of a command's output edge (stdout, stderr, reports, recorded files), as its
 * session builds it (session.ts `redactorFor`): the target's credential query values and
 * userinfo, every `--header` value, each `--secret` and each line of PHOTON_SECRETS, and the
 * other sides given. Nothing being judged passes through it.
 */
function outputRedactor(flags: Pick<RunFlags, "url" | "header" | "secret" | "spec">, ...others: TargetSpec[]): Redactor {
  return redactorFor([{ url: flags.url, headers: flags.header }, ...others], extraSecrets(flags));
}

/** The redactor for messages of the command being run (stderr), set as soon as its flags are known. */
let messageRedactor: Redactor = (text) => text;

/**
 * The session of a command line: its sides (each with its own headers), the fixtures profile
 * (--discover asks the first side only), the selected cases (none matching is a usage error)
 * and the settings every side shares.
 */
function sessionFor(flags: RunFlags, targets: readonly TargetSpec[], spec: SpecBundle, derived = true, signal?: AbortSignal): Promise<Session> {
  return openSession({
    targets,
    derived,
    spec,
    casesDir: flags.cases,
    methods: flags.method,
    caseGlobs: flags.case,
    shard: flags.shard,
    requireMatch: true,
    fixturesFile: flags.fixtures,
    discover: flags.discover,
    seedOwner: flags.seedOwner,
    fixturesName: flags.discover ? "discovered" : (flags.fixtures ?? "reference"),
    timeoutMs: flags.timeout,
    maxRps: flags.maxRps,
    concurrency: flags.concurrency,
    secrets: extraSecrets(flags),
    signal,
  });
}

/** `--spec`: the interface judged against. */
const specOption = (command: Command) =>
  command.option(
    "--spec <version|file>",
    `the interface to certify against: a bundled version (${bundledVersions().join(", ")}; default ${defaultSpec.spec.version}) or a spec file (OpenAPI YAML/JSON), compiled at start`,
  );

/** The options every command that sends the corpus to a target shares. */
const corpusOptions = (command: Command) =>
  specOption(command)
    .option("--method <name>", "only cases of this method (repeatable)", collect)
    .option("--case <glob>", "only cases whose id matches (repeatable)", collect)
    .option("--timeout <ms>", "per request", int("--timeout", 1), SESSION_DEFAULTS.timeoutMs)
    .option("--header <header>", "'Name: value' sent with every request (repeatable; its value is never printed or written)", header)
    .option(
      "--secret <value>",
      "a value to mask in every output besides the URL's credentials and header values (repeatable; also PHOTON_SECRETS, one per line)",
      collect,
    )
    .option("--fixtures <file>", "fixtures profile (JSON) naming the deployment's accounts")
    .option("--cases <dir>", "case corpus", casesDir)
    .option("--discover", "derive the fixtures profile from the target itself (needs --seed-owner)")
    .option("--seed-owner <pubkey>", "a program id whose accounts the target holds, where --discover starts")
    .option(
      "--config <file>",
      "settings file (JSON or YAML, keys as the long flags; default ./photon-conformance.config.{json,yaml,yml}); flags override it, it overrides PHOTON_URL and PHOTON_HEADERS",
    )
    .option("--list", "print the selected cases (id and method, one a line) and exit 0 without contacting the target");

const reporterOptions = (command: Command) =>
  command
    .addOption(new Option("--reporter <name>", `${reporterNames.join("|")} (repeatable, each optionally followed by --output FILE)`))
    .addOption(new Option("--output <file>", "file for the preceding --reporter"))
    .option(
      "--verbose",
      "list every case on the console as it is judged (default: a progress line, or counts every 10 s without a terminal, and each failure)",
    );

/** The case selection and fixtures of a command line, as the runner's options take them (for its reports). */
const selection = (flags: RunFlags, session: Session) => ({
  headers: flags.header ?? {},
  casesDir: flags.cases,
  fixtures: session.fixtures,
  methods: flags.method ?? [],
  caseGlobs: flags.case ?? [],
  timeoutMs: flags.timeout,
  fixturesName: session.fixturesName,
});

/** Exit code of a run Ctrl-C stopped (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT = ExitStatus.INTERRUPTED;

/** `started`: when the command began (`performance.now()`); --max-time counts from it, so it bounds --discover too. */
async function run(
  flags: RunFlags,
  argv: readonly string[],
  configured: readonly ConfigReporter[] | undefined,
  spec: SpecBundle,
  started: number,
): Promise<ExitStatusValue> {
  const pairs = reporters(argv, configured);
  await prepareOutputs(pairs);
  const saveProfile = await fixturesSaver(flags);
  // No --url: the session serves the embedded reference indexer, once the cases are selected.
  const maxTime = flags.maxTime ?? SESSION_DEFAULTS.maxTimeMs;
  const cut = deadline(Math.max(0, maxTime - (performance.now() - started)), `the run's deadline of ${formatDuration(maxTime)} (--max-time) was reached`);
  const session = await sessionFor(flags, [{ url: flags.url, headers: flags.header }], spec, true, cut.signal).finally(() => cut.clear());
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
    const ran = await runSuite(
      {
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
        signal: interrupt.signal,
        onResult: progress(pairs, redact, flags.verbose),
      },
      session,
    );
    const decided = decide(ran, { maxSkipped: flags.maxSkipped, refuseAllSkipped: true });
    await report(discovered ? { ...decided.summary, discovered } : decided.summary, pairs, redact);
    if (decided.refusal !== null) process.stderr.write(`photon-conformance: ${decided.refusal}\n`);
    return decided.exit;
  } finally {
    process.removeListener("SIGINT", onInterrupt);
    await session.close();
  }
}

/**
 * `--list`: the selected cases (shard applied), one `id  method` a line, then the run-wide
 * results the command adds and counts among its cases (`runWide`, method `(run-wide)`: run's
 * slot-order check when the selection holds it, diff's inconclusive tally), so the list and the
 * run's count agree; the target is never contacted.
 */
async function list(flags: RunFlags, spec: SpecBundle, derived = true, runWide: readonly string[] = []): Promise<ExitStatusValue> {
  const fixtures = await readFixtures(flags.fixtures ?? referenceFixturesFile);
  const cases = await loadSelection(
    { casesDir: flags.cases, methods: flags.method, caseGlobs: flags.case, shard: flags.shard, requireMatch: true, derived, spec },
    fixtures,
  );
  const rows = [...cases.map((c) => [c.id, c.method] as const), ...runWide.map((id) => [id, RUN_WIDE_ROW] as const)];
  const width = Math.max(0, ...rows.map(([id]) => id.length));
  process.stdout.write(rows.map(([id, method]) => `${forConsole(id).padEnd(width)}  ${forConsole(method)}\n`).join(""));
  return ExitStatus.OK;
}

/** Every `--output` is made writable before anything runs (outputs.ts): a place nothing can be written is a usage error. */
async function prepareOutputs(pairs: Pairs): Promise<void> {
  for (const { output } of pairs) if (output !== null) await prepareOutputFile(output);
}

/**
 * Applies the config file and the environment under the command line's flags (see config.ts),
 * checks the target URLs, and returns the config file's reporters, if any.
 */
async function settle(
  command: Command,
  flags: RunFlags & { against?: string; againstHeader?: Record<string, string> },
  known: ReadonlySet<string>,
): Promise<readonly ConfigReporter[] | undefined> {
  const against = (): TargetSpec[] => (flags.against ? [{ url: flags.against, headers: flags.againstHeader }] : []);
  settingSecrets = [];
  const file = await loadConfig(flags.config);
  const sources = [file, settingsFromEnv()].filter((s): s is Settings => s !== null);
  // Their credentials are masked from here on, before any of their values is checked.
  settingSecrets = sources.flatMap((s) => s.secrets);
  messageRedactor = outputRedactor(flags, ...against());
  const url = (flag: string) => (value: unknown) => void checkUrl(flag, String(value));
  applySettings(command, flags as unknown as Record<string, unknown>, sources, known, {
    reporterNames,
    checks: { url: url("--url"), against: url("--against") },
  });
  messageRedactor = outputRedactor(flags, ...against());
  if (flags.url !== undefined) checkUrl("--url", flags.url);
  if (flags.against !== undefined) checkUrl("--against", flags.against);
  return file?.reporters;
}

/** The settings a config file may hold: every long flag of the commands that read one. */
function settingNames(program: Command): Set<string> {
  const names = new Set(program.commands.flatMap((c) => c.options.map((o) => o.attributeName())));
  for (const own of ["config", "list", "reporter", "output"]) names.delete(own);
  return names;
}

type Pairs = ReturnType<typeof reporterPairs>;

/** Reporters whose text is a log, which may share stdout with one another and with one report. */
const LOG_REPORTERS: ReadonlySet<string> = new Set(["console", "github"]);

/**
 * The reporters the command line (else the config file) asked for (console by default; github
 * added on GitHub Actions). Two reports (json, junit, …) on stdout would be one unreadable file.
 */
function reporters(argv: readonly string[], configured?: readonly ConfigReporter[]): Pairs {
  const pairs = reporterPairs(argv);
  if (pairs.length === 0 && configured) pairs.push(...configured.map((r) => ({ name: r.name as ReporterName, output: r.output })));
  const onStdout = pairs.filter((p) => p.output === null && !LOG_REPORTERS.has(p.name)).map((p) => p.name);
  if (onStdout.length > 1)
    throw new UsageError(`--reporter ${onStdout.join(" and --reporter ")} would both write to stdout: give all but one of them --output FILE`);
  if (pairs.length === 0) pairs.push({ name: "console", output: null });
  if (process.env.GITHUB_ACTIONS === "true" && !pairs.some((p) => p.name === "github")) pairs.push({ name: "github", output: null });
  return pairs;
}

/** Writes every report through the one redactor of this run. */
async function report(summary: RunSummary, pairs: Pairs, redact: Redactor): Promise<void> {
  shownProgress?.finish();
  shownProgress = undefined;
  for (const { name, output } of pairs) {
    // Each string from outside is redacted, then escaped for its sink; the whole text once more after.
    const text = redact(render(name, summary, output ? null : process.stdout, redact));
    if (output) await writeFile(output, text);
    else process.stdout.write(text);
  }
  // The verdict is always printed: without a console report on stdout, its closing lines alone
  // (on stdout when no report is there, else on stderr, so that a report on stdout stays whole).
  if (!consoleOnStdout(pairs)) {
    const stream = pairs.every((p) => p.output !== null) ? process.stdout : process.stderr;
    stream.write(redact(`${closingLines(summary, consoleStyle(stream)).join("\n")}\n`));
  }
}

const consoleOnStdout = (pairs: Pairs): boolean => pairs.some((p) => p.name === "console" && p.output === null);

/** The progress being shown on stderr, ended before the reports are written. */
let shownProgress: Progress | undefined;

/**
 * Progress on stderr (reporters/progress.ts) with a console report on stdout, or no report on
 * stdout at all; none beside a report on stdout (json, junit…), whose reader wants it alone.
 */
const progress = (pairs: Pairs, redact: Redactor, verbose = false, noun = "cases"): Progress | undefined => {
  if (!consoleOnStdout(pairs) && !pairs.every((p) => p.output !== null)) return undefined;
  shownProgress = progressReporter({ style: consoleStyle(process.stderr), verbose, noun, redact, write: (text) => process.stderr.write(text) });
  return shownProgress;
};

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

/** Why `serve` could not listen, as a usage error (a taken port, an address not ours); null for other errors (thrown as they are). */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): UsageError | null {
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (err.code === "EADDRINUSE") return new UsageError(`cannot listen on ${where}: the port is already in use (--port 0 picks a free one)`);
  if (err.code === "EACCES") return new UsageError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges)`);
  if (err.code === "EADDRNOTAVAIL" || err.code === "ENOTFOUND") return new UsageError(`cannot listen on ${where}: no such local address (--host)`);
  if (err.code === "ENOENT" || err.code === "EISDIR") return new UsageError(`cannot read --dataset: ${err.message}`);
  return null;
}

export async function main(argv: string[]): Promise<number> {
  quietPipes();
  let code = 0;
  const program = new Command("photon-conformance")
    .description("Conformance suite for Photon-style compressed-account indexers")
    .version(packageVersion)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(argvRedactor(argv)(s)) });

  saveFixturesOption(reporterOptions(corpusOptions(program.command("run"))))
    .description("replay the conformance cases against an indexer (default: the embedded reference indexer)")
    .option("--url <url>", "indexer endpoint (its query string, e.g. ?api-key=…, is kept and never printed)")
    .option("--concurrency <n>", "cases in flight", int("--concurrency", 1), SESSION_DEFAULTS.concurrency)
    .option("--strict", "fields unknown to the spec fail instead of warn")
    .option("--max-rps <n>", "requests per second at most", int("--max-rps", 1))
    .option("--shard <i/n>", "run the I-th of N stable slices of the cases", shard)
    .addOption(
      durationOption(
        "--max-time <duration>",
        "the whole command's deadline (--discover included); cases left then are not run, and the reports are written",
        "--max-time",
        SESSION_DEFAULTS.maxTimeMs,
      ),
    )
    .addOption(durationOption("--case-time <duration>", "one case's deadline, all its requests (walks included) together", "--case-time", SESSION_DEFAULTS.caseTimeMs))
    .option("--max-failures <n>", "after N failed cases start no more; the rest are reported as not run", int("--max-failures", 1))
    .option("--max-skipped <n|n%>", "more skipped cases than N (or N% of those selected) fail the run", skipLimit)
    .option(
      "--skip-method <name>",
      "opt a method (or alias) out: its cases are not run and not serving it does not fail the verdict; the certificate names it (repeatable; the spec's x-registered: false methods are opted out by default)",
      collect,
    )
    .action(async (flags: RunFlags, command: Command) => {
      const started = performance.now();
      messageRedactor = outputRedactor(flags);
      const configured = await settle(command, flags, settingNames(program));
      const spec = await loadSpecBundle(flags.spec); // a bad spec or an unknown version is a usage error (exit 2) before anything runs
      checkSkipMethods(flags.skipMethod ?? [], spec.methods, spec.spec); // so is an unknown name
      const runWide = selectsRunWide({ methods: flags.method, caseGlobs: flags.case, shard: flags.shard }) ? [SLOT_ORDER_ID] : [];
      code = flags.list ? await list(flags, spec, true, runWide) : await run(flags, argv, configured, spec, started);
    });

  reporterOptions(corpusOptions(program.command("diff")))
    .description("send the same cases to two indexers and report every difference by JSON path")
    .option("--url <url>", "the indexer under test (or PHOTON_URL, or `url` in the config file)")
    .option("--against <url>", "the trusted indexer to compare with (its values are the expected ones); required")
    .option("--against-header <header>", "'Name: value' sent to --against only (repeatable; --header goes to --url only; values never printed)", header)
    .addOption(maxInconclusiveOption())
    .option("--concurrency <n>", "cases in flight", int("--concurrency", 1), SESSION_DEFAULTS.concurrency)
    .option("--max-skipped <n|n%>", "more skipped cases than N (or N% of those selected) fail the run", skipLimit)
    .action(async (flags: RunFlags & { url: string; against: string; againstHeader?: Record<string, string> }, command: Command) => {
      const against = (): TargetSpec => ({ url: flags.against, headers: flags.againstHeader });
      messageRedactor = outputRedactor(flags, against());
      const configured = await settle(command, flags, settingNames(program));
      messageRedactor = outputRedactor(flags, against()); // with the config file's and the environment's values
      const spec = await loadSpecBundle(flags.spec);
      if (flags.list) return void (code = await list(flags, spec, true, [INCONCLUSIVE_ID]));
      if (!flags.url || !flags.against) throw new UsageError("diff needs --url (or PHOTON_URL, or `url` in the config file) and --against");
      const pairs = reporters(argv, configured);
      await prepareOutputs(pairs);
      // Each side with its own headers; --discover asks --url only.
      const session = await sessionFor(
        flags,
        [
          { url: flags.url, headers: flags.header },
          { url: flags.against, headers: flags.againstHeader ?? {} },
        ],
        spec,
      );
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
            onResult: progress(pairs, redact, flags.verbose),
          },
          session,
        );
        const decided = decide(compared, { maxSkipped: flags.maxSkipped });
        await report(discovered ? { ...decided.summary, discovered } : decided.summary, pairs, redact);
        code = decided.exit;
      } finally {
        await session.close();
      }
    });

  corpusOptions(program.command("record"))
    .description("send every case to a live indexer and write its answers into the case files")
    .option("--url <url>", "the indexer to record from (its query string is never written); or PHOTON_URL, or `url` in the config file")
    .option("--out <dir>", "where the recorded case files go (may be the corpus itself); changes are reported against the files already there; required")
    .action(async (flags: RunFlags & { url: string; out: string }, command: Command) => {
      messageRedactor = outputRedactor(flags);
      await settle(command, flags, settingNames(program));
      const spec = await loadSpecBundle(flags.spec);
      // Spec-derived cases are not recorded: their expectations are the spec's, they have no file (`cases derive` writes them).
      if (flags.list) return void (code = await list(flags, spec, false));
      if (!flags.url || !flags.out) throw new UsageError("record needs --url (or PHOTON_URL, or `url` in the config file) and --out DIR");
      await checkOutputFolder(flags.out);
      const session = await sessionFor(flags, [{ url: flags.url, headers: flags.header }], spec, false);
      try {
        const { redact, discovered } = session;
        if (discovered) process.stdout.write(`discovered fixtures: ${forConsole(redact(stringifyJson(discovered)))}\n`);
        const changes = await recordCases({ ...selection(flags, session), url: flags.url, out: flags.out, secrets: extraSecrets(flags) }, session);
        process.stdout.write(redact(renderChanges(changes, redact)));
        code = decide(changeCounts(changes)).exit;
      } finally {
        await session.close();
      }
    });

  specOption(
    program
      .command("cases")
      .description("work on the case corpus")
      .command("derive")
      .description("write the spec-derived cases (generated from the method table at load time) as YAML case files for review")
      .option("--out <dir>", "where to write them, as <dir>/derived/<method>/<rule>.yaml", "derived-cases"),
  ).action(async (flags: { out: string; spec?: string }) => {
    const spec = await loadSpecBundle(flags.spec);
    await checkOutputFolder(flags.out);
    const files = await writeDerived(flags.out, spec.methods);
    process.stdout.write(`${files.length} derived cases written under ${forConsole(join(flags.out, DERIVED_PREFIX))}\n`);
    code = ExitStatus.OK;
  });

  specOption(reporterOptions(program.command("check")))
    .description("verify captured traffic offline: FILE is JSON lines of {request, response, status?}")
    .argument("<file>", "captured exchanges, one JSON object a line")
    .option("--strict", "fields unknown to the spec fail instead of warn")
    .option("--secret <value>", "a value to mask in every output (repeatable; also PHOTON_SECRETS, one per line)", collect)
    .action(async (file: string, flags: { strict?: boolean; secret?: string[]; spec?: string; verbose?: boolean }) => {
      const pairs = reporters(argv);
      const redact = outputRedactor(flags);
      messageRedactor = redact;
      const spec = await loadSpecBundle(flags.spec);
      await prepareOutputs(pairs);
      const summary = await checkFile({ file, strict: flags.strict ?? false, onResult: progress(pairs, redact, flags.verbose, "exchanges"), spec });
      const decided = decide(summary);
      await report(decided.summary, pairs, redact);
      code = decided.exit;
    });

  program
    .command("serve")
    .description("serve the reference indexer until SIGINT/SIGTERM")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <port>", "port (0 picks a free one)", int("--port", 0, 65535), 8784)
    .option("--dataset <file>", "dataset file (JSON lines) to load")
    .option("--seed <n>", "seed of the generated dataset", int("--seed"), 1)
    .option(
      "--accounts <n>",
      `accounts in the generated dataset (at least ${MIN_ACCOUNTS}, the fewest that hold every edge the suite checks; default 20000)`,
      int("--accounts", MIN_ACCOUNTS),
    )
    .option("--rate-limit <n>", "requests per second; over it, HTTP 429 with Retry-After", int("--rate-limit", 1))
    .option("--latency <ms>", "delay before every answer", int("--latency"))
    .option("--prover-url <url>", "a gnark prover (POST URL/prove) for real validity proofs; without it they carry a placeholder proof", (value: string) =>
      checkUrl("--prover-url", value),
    )
    .option("--live <ms>", "one transaction every MS ms (same --seed, same history)", int("--live", 1, MAX_INTERVAL_MS))
    .option("--lag <n>", "with --live: answer N slots behind (catching up)", int("--lag", 0, MAX_LAG))
    .action(async (flags: ServeFlags) => {
      if (flags.lag !== undefined && flags.live === undefined) throw new UsageError("--lag needs --live");
      const server = await startReferenceIndexer({
        live: flags.live === undefined ? undefined : { intervalMs: flags.live, lag: flags.lag },
        host: flags.host,
        port: flags.port,
        dataset: flags.dataset,
        seed: flags.seed,
        accounts: flags.accounts,
        rateLimit: flags.rateLimit,
        latencyMs: flags.latency,
        proverUrl: flags.proverUrl,
      }).catch((err: NodeJS.ErrnoException) => {
        const usage = listenError(err, flags.host, flags.port);
        if (usage) throw usage;
        throw err;
      });
      process.stdout.write(`listening on ${server.url}\n`);
      if (server.live !== null) process.stdout.write(`${server.live.describe()}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await server.close();
    });

  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (err) {
    const exit = exitFor(err); // cli/exit.ts: the status each code carries
    if (exit.printed) return exit.status; // commander printed it
    // Redacted, then each kept on its line (a message may quote a target's answer or a file's text); a config's problems one a line.
    const lines = err instanceof ConfigError ? err.problems : [err instanceof Error ? err.message : String(err)];
    const prefix = exit.expected ? "photon-conformance: " : "photon-conformance: unexpected error: ";
    process.stderr.write(lines.map((line) => `${prefix}${forConsole(messageRedactor(line))}\n`).join(""));
    return exit.status;
  }
}
