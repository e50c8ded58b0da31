/**
 * What the commands of one command line share: the redactor of its messages, the credentials
 * its settings brought, its exit status, its settings (config file, environment) under its flags,
 * and the session and `--list` of the commands that send the corpus.
 */
import type { Command } from "commander";
import { ExitStatus, secretsFromEnv, secretsOf, type ExitStatusValue, type Redactor } from "@photon-indexer-kit/runtime";
import { applySettings, loadConfig, settingsFromEnv, type ConfigReporter, type Settings } from "../config.js";
import { readFixtures, referenceFixturesFile } from "../fixtures.js";
import { reporterNames } from "../reporters/index.js";
import { forConsole } from "../reporters/support/escape.js";
import { RUN_WIDE_ROW } from "../reporters/support/stats.js";
import { loadSelection, openSession, redactorFor, type Session, type SessionOptions, type TargetSpec } from "../session.js";
import type { ConformanceCase } from "../case-format.js";
import type { SpecBundle } from "../spec-bundle.js";
import { checkUrl, type CorpusFlags } from "./options.js";

/** The flags a command's redactors read. */
type SecretFlags = Pick<CorpusFlags, "url" | "header" | "secret" | "spec">;

export class Invocation {
  /** The exit status the command set. */
  status: ExitStatusValue = ExitStatus.OK;
  /** The redactor of the command's messages (stderr), set as soon as its flags are known. */
  messages: Redactor = (text) => text;
  /** The config file's and the environment's credentials, known as soon as they are read, before any is checked. */
  private settingSecrets: readonly string[] = [];

  constructor(
    readonly argv: readonly string[],
    private readonly program: Command,
  ) {}

  /** Values to mask besides the targets' credentials and header values: each `--secret`, PHOTON_SECRETS, the `--spec` URL's credentials and the settings'. */
  extraSecrets(flags: Pick<CorpusFlags, "secret" | "spec">): string[] {
    return [...(flags.secret ?? []), ...secretsFromEnv(), ...(flags.spec ? secretsOf(flags.spec) : []), ...this.settingSecrets];
  }

  /** The one redactor of the command's output edge (session.ts `redactorFor`): its targets' credentials, header values and extra secrets. */
  outputRedactor(flags: SecretFlags, ...others: TargetSpec[]): Redactor {
    return redactorFor([{ url: flags.url, headers: flags.header }, ...others], this.extraSecrets(flags));
  }

  /**
   * Applies the config file and the environment under the command line's flags (config.ts),
   * checks the target URLs, and returns the config file's reporters, if any.
   */
  async settle(
    command: Command,
    flags: CorpusFlags & { against?: string; againstHeader?: Record<string, string> },
  ): Promise<readonly ConfigReporter[] | undefined> {
    const against = (): TargetSpec[] => (flags.against ? [{ url: flags.against, headers: flags.againstHeader }] : []);
    this.settingSecrets = [];
    const file = await loadConfig(flags.config);
    const sources = [file, settingsFromEnv()].filter((s): s is Settings => s !== null);
    // Their credentials are masked from here on, before any of their values is checked.
    this.settingSecrets = sources.flatMap((s) => s.secrets);
    this.messages = this.outputRedactor(flags, ...against());
    const url = (flag: string) => (value: unknown) => void checkUrl(flag, String(value));
    applySettings(command, flags as unknown as Record<string, unknown>, sources, this.settingNames(), {
      reporterNames,
      checks: { url: url("--url"), against: url("--against") },
    });
    this.messages = this.outputRedactor(flags, ...against());
    if (flags.url !== undefined) checkUrl("--url", flags.url);
    if (flags.against !== undefined) checkUrl("--against", flags.against);
    return file?.reporters;
  }

  /** The settings a config file may hold: every long flag of the commands that read one. */
  private settingNames(): Set<string> {
    const names = new Set(this.program.commands.flatMap((c) => c.options.map((o) => o.attributeName())));
    for (const own of ["config", "list", "reporter", "output"]) names.delete(own);
    return names;
  }

  /**
   * The session of a command line: its sides (each with its own headers), the fixtures profile
   * (--discover asks the first side only), the selected cases (none matching is a usage error)
   * and the settings every side shares; `more` adds a deadline, an observer told of every exchange
   * and a memo of the selection (watch's).
   */
  sessionFor(
    flags: CorpusFlags,
    targets: readonly TargetSpec[],
    spec: SpecBundle,
    derived = true,
    more: Pick<SessionOptions, "signal" | "observe" | "memo"> = {},
  ): Promise<Session> {
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
      secrets: this.extraSecrets(flags),
      ...more,
    });
  }
}

/** The case selection and fixtures of a command line, as the runner's options take them (for its reports). */
export const selection = (flags: CorpusFlags, session: Session) => ({
  headers: flags.header ?? {},
  casesDir: flags.cases,
  fixtures: session.fixtures,
  methods: flags.method ?? [],
  caseGlobs: flags.case ?? [],
  timeoutMs: flags.timeout,
  fixturesName: session.fixturesName,
});

/**
 * `--list`: the selected cases (shard applied), one `id  method` a line, then the run-wide
 * results the command counts among its cases (`runWide`), so the list and the run's count agree.
 * The target is never contacted.
 */
export async function list(flags: CorpusFlags, spec: SpecBundle, derived = true, runWide: readonly string[] = []): Promise<ExitStatusValue> {
  const cases = await selectedCases(flags, spec, derived);
  const rows = [...cases.map((c) => [c.id, c.method] as const), ...runWide.map((id) => [id, RUN_WIDE_ROW] as const)];
  const width = Math.max(0, ...rows.map(([id]) => id.length));
  process.stdout.write(rows.map(([id, method]) => `${forConsole(id).padEnd(width)}  ${forConsole(method)}\n`).join(""));
  return ExitStatus.OK;
}

/** The cases a command line selects, read without contacting the target (the profile given, else the reference's); none matching is a usage error. */
export async function selectedCases(flags: CorpusFlags, spec: SpecBundle, derived = true): Promise<ConformanceCase[]> {
  const fixtures = await readFixtures(flags.fixtures ?? referenceFixturesFile);
  return loadSelection(
    { casesDir: flags.cases, methods: flags.method, caseGlobs: flags.case, shard: flags.shard, requireMatch: true, derived, spec },
    fixtures,
  );
}
