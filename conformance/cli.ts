/**
 * photon-conformance: certify an indexer against the spec, or serve the reference indexer.
 *   run   [--url URL] [options]   exit 0 conformant, 1 not, 2 usage / unreadable cases / unreachable target
 *   serve [--host H] [--port P] [--dataset FILE | --seed N --accounts N] [--rate-limit N] [--latency MS]
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { createRedactor, parseJson, secretsFromEnv, secretsOf, stringifyJson, type Redactor } from "../runtime/index.js";
import { startReferenceIndexer } from "../reference/serve.js";
import { CaseError, type Fixtures } from "./case-format.js";
import { checkFile } from "./check.js";
import { diffTargets } from "./diff.js";
import { discoverFixtures } from "./discover.js";
import { createTarget } from "./target.js";
import { recordCases, renderChanges } from "./record.js";
import type { CaseResult, RunSummary } from "./model.js";
import { packageRoot } from "./paths.js";
import { consoleStyle, progressLine } from "./reporters/console.js";
import { render, reporterNames, type ReporterName } from "./reporters/index.js";
import { DEFAULT_CASE_TIME_MS, DEFAULT_MAX_TIME_MS, runSuite, UnreachableError } from "./run.js";

/** A command line that cannot be carried out as given (exit 2). */
class UsageError extends Error {
  override name = "UsageError";
}

const int = (name: string, min = 0) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
  return n;
};
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A duration: milliseconds, or a number with ms, s, m or h (`90s`, `30m`). */
const duration = (name: string) => (value: string) => {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
  const ms = m ? Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? "ms") as "ms"]) : NaN;
  if (!(ms >= 1)) throw new InvalidArgumentError(`${name} is a duration: milliseconds, or a number with ms, s, m or h (e.g. 30m)`);
  return ms;
};

function header(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf(":");
  if (at <= 0) throw new InvalidArgumentError("a header is 'Name: value'");
  return { ...previous, [value.slice(0, at).trim().toLowerCase()]: value.slice(at + 1).trim() };
}

function shard(value: string): { index: number; total: number } {
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

async function readFixtures(file: string): Promise<Fixtures> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new CaseError(file, `cannot read the fixtures profile: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    const value = parseJson(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
    return value as Fixtures;
  } catch (err) {
    throw new CaseError(file, `invalid fixtures profile: ${(err as Error).message}`);
  }
}

interface RunFlags {
  url?: string;
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
}

/**
 * The one redactor of a command's output edge (stdout, stderr, reports, recorded files): the
 * target's credential query values and userinfo, every `--header` value, each `--secret` and
 * each line of PHOTON_SECRETS. Nothing being judged passes through it.
 */
function outputRedactor(flags: Pick<RunFlags, "url" | "header" | "secret">, ...others: Parameters<typeof secretsOf>[]): Redactor {
  const extra = [...(flags.secret ?? []), ...secretsFromEnv()];
  return createRedactor([...secretsOf(flags.url, flags.header, extra), ...others.flatMap((args) => secretsOf(...args))]);
}

/** The redactor for messages of the command being run (stderr), set as soon as its flags are known. */
let messageRedactor: Redactor = (text) => text;

/** The fixtures profile: discovered from the target (--discover), read from --fixtures, or the reference one. */
async function fixturesFor(flags: RunFlags, url: string | undefined): Promise<{ fixtures: Fixtures; discovered?: Fixtures }> {
  if (!flags.discover) return { fixtures: await readFixtures(flags.fixtures ?? join(packageRoot, "conformance", "fixtures", "reference.json")) };
  if (!flags.seedOwner) throw new UsageError("--discover needs --seed-owner PUBKEY (a program id whose accounts the target holds)");
  if (!url) throw new UsageError("--discover needs --url");
  const target = createTarget({ url, headers: flags.header ?? {}, timeoutMs: flags.timeout, maxBodyBytes: 16 * 1024 * 1024, maxRps: flags.maxRps ?? null, retry: { retries: 3, budgetMs: 10_000 } });
  try {
    const discovered = (await discoverFixtures(target, flags.seedOwner)) as Fixtures;
    return { fixtures: discovered, discovered };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The options every command that sends the corpus to a target shares. */
const corpusOptions = (command: Command) =>
  command
    .option("--method <name>", "only cases of this method (repeatable)", collect)
    .option("--case <glob>", "only cases whose id matches (repeatable)", collect)
    .option("--timeout <ms>", "per request", int("--timeout", 1), 10_000)
    .option("--header <header>", "'Name: value' sent with every request (repeatable; its value is never printed or written)", header)
    .option("--secret <value>", "a value to mask in every output besides the URL's credentials and header values (repeatable; also PHOTON_SECRETS, one per line)", collect)
    .option("--fixtures <file>", "fixtures profile (JSON) naming the deployment's accounts")
    .option("--cases <dir>", "case corpus", join(packageRoot, "conformance", "cases"))
    .option("--discover", "derive the fixtures profile from the target itself (needs --seed-owner)")
    .option("--seed-owner <pubkey>", "a program id whose accounts the target holds, where --discover starts");

const reporterOptions = (command: Command) =>
  command
    .addOption(new Option("--reporter <name>", "console|json|junit|github|markdown (repeatable, each optionally followed by --output FILE)"))
    .addOption(new Option("--output <file>", "file for the preceding --reporter"));

/** The case selection and fixtures of a command line, as the runner's options take them. */
const selection = (flags: RunFlags, fixtures: Fixtures) => ({
  headers: flags.header ?? {},
  casesDir: flags.cases,
  fixtures,
  methods: flags.method ?? [],
  caseGlobs: flags.case ?? [],
  timeoutMs: flags.timeout,
});

async function run(flags: RunFlags, argv: readonly string[]): Promise<number> {
  const pairs = reporters(argv);
  const { fixtures, discovered } = await fixturesFor(flags, flags.url);
  const reference = flags.url ? null : await startReferenceIndexer({ host: "127.0.0.1", port: 0 });
  const redact = outputRedactor(flags);
  try {
    const summary = await runSuite({
      ...selection(flags, fixtures),
      url: flags.url ?? reference!.url,
      concurrency: flags.concurrency,
      strict: flags.strict ?? false,
      maxRps: flags.maxRps ?? null,
      shard: flags.shard ?? null,
      maxTimeMs: flags.maxTime,
      caseTimeMs: flags.caseTime,
      onResult: progress(pairs, redact),
    });
    const shown = discovered ? { ...summary, discovered } : summary;
    await report(shown, pairs, redact);
    if (summary.results.length > 0 && summary.results.every((r) => r.status === "skip")) {
      process.stderr.write("photon-conformance: every case was skipped: the fixtures profile fills none of them\n");
      return 2;
    }
    return summary.passed ? 0 : 1;
  } finally {
    await reference?.close();
  }
}

type Pairs = ReturnType<typeof reporterPairs>;

/** The reporters the command line asked for (console by default; github added on GitHub Actions). */
function reporters(argv: readonly string[]): Pairs {
  const pairs = reporterPairs(argv);
  if (pairs.length === 0) pairs.push({ name: "console", output: null });
  if (process.env.GITHUB_ACTIONS === "true" && !pairs.some((p) => p.name === "github")) pairs.push({ name: "github", output: null });
  return pairs;
}

/** Writes every report through the one redactor of this run. */
async function report(summary: RunSummary, pairs: Pairs, redact: Redactor): Promise<void> {
  for (const { name, output } of pairs) {
    // Each string from outside is redacted, then escaped for its sink; the whole text once more after.
    const text = redact(render(name, summary, output ? null : process.stdout, redact));
    if (output) await writeFile(output, text);
    else process.stdout.write(text);
  }
}

const progress = (pairs: Pairs, redact: Redactor) => {
  const style = consoleStyle(process.stderr);
  return pairs.some((p) => p.name === "console" && p.output === null) ? (r: CaseResult, done: number, total?: number) => process.stderr.write(redact(progressLine(style, r, done, total, redact))) : undefined;
};

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = new Command("photon-conformance")
    .description("Conformance suite for Photon-style compressed-account indexers")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  reporterOptions(corpusOptions(program.command("run")))
    .description("replay the conformance cases against an indexer (default: the embedded reference indexer)")
    .option("--url <url>", "indexer endpoint (its query string, e.g. ?api-key=…, is kept and never printed)")
    .option("--concurrency <n>", "cases in flight", int("--concurrency", 1), 4)
    .option("--strict", "fields unknown to the spec fail instead of warn")
    .option("--max-rps <n>", "requests per second at most", int("--max-rps", 1))
    .option("--shard <i/n>", "run the I-th of N stable slices of the cases", shard)
    .option("--max-time <duration>", "the whole run's deadline; cases left then fail as not run, and the reports are written", duration("--max-time"), DEFAULT_MAX_TIME_MS)
    .option("--case-time <duration>", "one case's deadline, all its requests (walks included) together", duration("--case-time"), DEFAULT_CASE_TIME_MS)
    .action(async (flags: RunFlags) => {
      messageRedactor = outputRedactor(flags);
      code = await run(flags, argv);
    });

  reporterOptions(corpusOptions(program.command("diff")))
    .description("send the same cases to two indexers and report every difference by JSON path")
    .requiredOption("--url <url>", "the indexer under test")
    .requiredOption("--against <url>", "the trusted indexer to compare with (its values are the expected ones)")
    .option("--against-header <header>", "'Name: value' sent to --against only (repeatable; --header goes to --url only; values never printed)", header)
    .option("--max-inconclusive <n>", "required cases allowed to differ only where the chain moves, at different slots twice", int("--max-inconclusive"), 0)
    .option("--concurrency <n>", "cases in flight", int("--concurrency", 1), 4)
    .action(async (flags: RunFlags & { url: string; against: string; againstHeader?: Record<string, string>; maxInconclusive: number }) => {
      const redact = outputRedactor(flags, [flags.against, flags.againstHeader]);
      messageRedactor = redact;
      const pairs = reporters(argv);
      const { fixtures, discovered } = await fixturesFor(flags, flags.url); // --discover asks --url only, with its own headers
      const summary = await diffTargets({ ...selection(flags, fixtures), url: flags.url, against: flags.against, againstHeaders: flags.againstHeader ?? {}, maxInconclusive: flags.maxInconclusive, concurrency: flags.concurrency, onResult: progress(pairs, redact) });
      await report(discovered ? { ...summary, discovered } : summary, pairs, redact);
      code = summary.passed ? 0 : 1;
    });

  corpusOptions(program.command("record"))
    .description("send every case to a live indexer and write its answers into the case files")
    .requiredOption("--url <url>", "the indexer to record from (its query string is never written)")
    .requiredOption("--out <dir>", "where the recorded case files go (may be the corpus itself)")
    .action(async (flags: RunFlags & { url: string; out: string }) => {
      messageRedactor = outputRedactor(flags);
      const { fixtures, discovered } = await fixturesFor(flags, flags.url);
      if (discovered) process.stdout.write(outputRedactor(flags)(`discovered fixtures: ${stringifyJson(discovered)}\n`));
      const changes = await recordCases({ ...selection(flags, fixtures), url: flags.url, out: flags.out, secrets: [...(flags.secret ?? []), ...secretsFromEnv()] });
      process.stdout.write(outputRedactor(flags)(renderChanges(changes)));
      code = changes.some((c) => c.kind === "failed") ? 1 : 0;
    });

  reporterOptions(program.command("check"))
    .description("verify captured traffic offline: FILE is JSON lines of {request, response, status?}")
    .argument("<file>", "captured exchanges, one JSON object a line")
    .option("--strict", "fields unknown to the spec fail instead of warn")
    .option("--secret <value>", "a value to mask in every output (repeatable; also PHOTON_SECRETS, one per line)", collect)
    .action(async (file: string, flags: { strict?: boolean; secret?: string[] }) => {
      const pairs = reporters(argv);
      const redact = outputRedactor(flags);
      messageRedactor = redact;
      const summary = await checkFile({ file, strict: flags.strict ?? false, onResult: progress(pairs, redact) });
      await report(summary, pairs, redact);
      code = summary.passed ? 0 : 1;
    });

  program
    .command("serve")
    .description("serve the reference indexer until SIGINT/SIGTERM")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <port>", "port (0 picks a free one)", int("--port"), 8784)
    .option("--dataset <file>", "dataset file (JSON lines) to load")
    .option("--seed <n>", "seed of the generated dataset", int("--seed"), 1)
    .option("--accounts <n>", "accounts in the generated dataset", int("--accounts", 1))
    .option("--rate-limit <n>", "requests per second; over it, HTTP 429 with Retry-After", int("--rate-limit", 1))
    .option("--latency <ms>", "delay before every answer", int("--latency"))
    .action(async (flags: { host: string; port: number; dataset?: string; seed: number; accounts?: number; rateLimit?: number; latency?: number }) => {
      const server = await startReferenceIndexer({
        host: flags.host,
        port: flags.port,
        dataset: flags.dataset,
        seed: flags.seed,
        accounts: flags.accounts,
        rateLimit: flags.rateLimit,
        latencyMs: flags.latency,
      });
      process.stdout.write(`listening on ${server.url}\n`);
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
    if (err instanceof CaseError || err instanceof UnreachableError || err instanceof UsageError || err instanceof InvalidArgumentError) {
      process.stderr.write(`photon-conformance: ${messageRedactor(err.message)}\n`);
      return 2;
    }
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2; // commander printed it
    process.stderr.write(`photon-conformance: unexpected error: ${messageRedactor(err instanceof Error ? err.message : String(err))}\n`);
    return 2;
  }
}
