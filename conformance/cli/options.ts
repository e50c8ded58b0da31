/**
 * photon-conformance's options: the values commander parses (integers, durations, headers,
 * budgets, shards, `--reporter`/`--output` pairs, target URLs), each refused with one line; the
 * option groups the commands share; and the credentials a command line carries.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { createRedactor, secretsOf, type Redactor } from "@photon-indexer-kit/runtime";
import { UsageError } from "../errors.js";
import { casesDir } from "../fixtures.js";
import { reporterNames, type ReporterName } from "../reporters/index.js";
import { SESSION_DEFAULTS } from "../session.js";
import { bundledVersions, defaultSpec } from "../spec-bundle.js";
import { budgetText, DEFAULT_MAX_INCONCLUSIVE, type Budget } from "../verdict.js";

export const int =
  (name: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER ? `${name} must be an integer >= ${min}` : `${name} must be an integer from ${min} to ${max}`,
      );
    return n;
  };
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A duration: milliseconds, or a number with ms, s, m or h (`90s`, `30m`). */
export const duration = (name: string) => (value: string) => {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
  const ms = m ? Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? "ms") as "ms"]) : NaN;
  if (!(ms >= 1)) throw new InvalidArgumentError(`${name} is a duration: milliseconds, or a number with ms, s, m or h (e.g. 30m)`);
  return ms;
};

/** A duration as `duration` reads it, in its largest whole unit (`30m`, `2m`, `90s`), for --help. */
export function durationText(ms: number): string {
  const unit = (["h", "m", "s"] as const).find((u) => ms % { h: 3_600_000, m: 60_000, s: 1000 }[u] === 0);
  return unit ? `${ms / { h: 3_600_000, m: 60_000, s: 1000 }[unit]}${unit}` : `${ms}ms`;
}

/** An option taking a duration, its default shown with its unit (`(default: 30m)`), not in milliseconds. */
export const durationOption = (flags: string, description: string, name: string, ms: number) =>
  new Option(flags, description).argParser(duration(name)).default(ms, durationText(ms));

export function header(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf(":");
  if (at <= 0) throw new InvalidArgumentError("a header is 'Name: value'");
  return { ...previous, [value.slice(0, at).trim().toLowerCase()]: value.slice(at + 1).trim() };
}

/** A count of cases (`5`) or a percentage (`10%`, at most 100), else `message`. */
const countOrShare =
  (message: string) =>
  (value: string): Budget => {
    const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(value.trim());
    const count = m ? Number(m[1]) : NaN;
    if (!m || (!m[2] && !Number.isInteger(count)) || (m[2] && count > 100)) throw new InvalidArgumentError(message);
    return { count, percent: m[2] === "%" };
  };

export const skipLimit = countOrShare("--max-skipped is a number of cases (5) or a percentage of those selected (10%)");

/** `--max-inconclusive`: a count of required cases, or a percentage of the required cases compared. */
export const inconclusiveLimit = countOrShare("--max-inconclusive is a number of cases (5) or a percentage of the required cases compared (10%)");

/** What was typed as a URL, with anything that may be a credential (userinfo password, query values) masked. */
export function maskTyped(text: string): string {
  return text.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?[^/?#@:]*):[^/?#@]*@/i, "$1:***@").replace(/([?&][^=&#]*=)[^&#]*/g, "$1***");
}

/** A target URL as the transport takes it: http(s), with a host; anything else is a usage error showing what was typed. */
export function checkUrl(flag: string, value: string): string {
  let u: URL | null = null;
  try {
    u = new URL(value);
  } catch {
    // reported below
  }
  if (!u || (u.protocol !== "http:" && u.protocol !== "https:") || !u.hostname) {
    throw new UsageError(`${flag} must be an http:// or https:// URL such as http://127.0.0.1:8784/ (got '${maskTyped(value)}')`);
  }
  return value;
}

export function shard(value: string): { index: number; total: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new InvalidArgumentError("--shard is I/N with 1 <= I <= N");
  return { index: Number(m[1]), total: Number(m[2]) };
}

/** `--reporter X [--output F]` pairs, in argv order; a reporter without --output writes to stdout. */
export function reporterPairs(argv: readonly string[]): { name: ReporterName; output: string | null }[] {
  const pairs: { name: ReporterName; output: string | null }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    const value = inline ?? argv[i + 1];
    if (flag === "--reporter") {
      if (!reporterNames.includes(value as ReporterName)) throw new InvalidArgumentError(`--reporter must be one of ${reporterNames.join(", ")}`);
      pairs.push({ name: value as ReporterName, output: null });
    } else if (flag === "--output") {
      const last = pairs[pairs.length - 1];
      if (!last || last.output !== null || value === undefined) throw new InvalidArgumentError("--output must follow a --reporter");
      last.output = value;
    }
  }
  return pairs;
}

/** Options whose values are or carry credentials (a header's value, a URL's userinfo and token). */
const CREDENTIAL_OPTIONS: ReadonlySet<string> = new Set(["--url", "--against", "--header", "--against-header", "--secret", "--spec"]);

/**
 * The credentials on a command line, for commander's own errors: they quote a value it refused
 * (`argument 'Bearer sk_…' is invalid`), before any flag is known to the other redactors.
 */
export function argvRedactor(argv: readonly string[]): Redactor {
  const secrets: string[] = [];
  argv.forEach((arg, i) => {
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const [flag, value] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, argv[i + 1]];
    if (!CREDENTIAL_OPTIONS.has(flag) || value === undefined) return;
    const colon = value.indexOf(":");
    secrets.push(value, ...secretsOf(value), ...(colon > 0 ? secretsOf(undefined, { [value.slice(0, colon)]: value.slice(colon + 1) }) : []));
  });
  return createRedactor(secrets);
}

/** diff's `--max-inconclusive`, its default (10%) shown as typed. */
export const maxInconclusiveOption = () =>
  new Option(
    "--max-inconclusive <n|n%>",
    "required cases allowed to stay inconclusive (differing only where the chain moves, at different slots twice): a count, or a percentage of the required cases compared",
  )
    .argParser(inconclusiveLimit)
    .default(DEFAULT_MAX_INCONCLUSIVE, budgetText(DEFAULT_MAX_INCONCLUSIVE));

/** The flags of the commands that send the corpus to a target (run, diff, record), as commander parses them. */
export interface CorpusFlags {
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

/** `--spec`: the interface judged against. */
export const specOption = (command: Command) =>
  command.option(
    "--spec <version|file>",
    `the interface to certify against: a bundled version (${bundledVersions().join(", ")}; default ${defaultSpec.spec.version}) or a spec file (OpenAPI YAML/JSON), compiled at start`,
  );

/** The options every command that sends the corpus to a target shares. */
export const corpusOptions = (command: Command) =>
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

/** The options of the commands that write reports. */
export const reporterOptions = (command: Command) =>
  command
    .addOption(new Option("--reporter <name>", `${reporterNames.join("|")} (repeatable, each optionally followed by --output FILE)`))
    .addOption(new Option("--output <file>", "file for the preceding --reporter"))
    .option(
      "--verbose",
      "list every case on the console as it is judged (default: a progress line, or counts every 10 s without a terminal, and each failure)",
    );

/** `--concurrency`, run's and diff's. */
export const concurrencyOption = () =>
  new Option("--concurrency <n>", "cases in flight").argParser(int("--concurrency", 1)).default(SESSION_DEFAULTS.concurrency);

/** `--max-skipped`, run's and diff's. */
export const maxSkippedOption = () =>
  new Option("--max-skipped <n|n%>", "more skipped cases than N (or N% of those selected) fail the run").argParser(skipLimit);
