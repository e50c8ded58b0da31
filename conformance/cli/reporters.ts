/**
 * Where a command's reports go: the `--reporter`/`--output` pairs (else the config file's, else
 * the console; github added on GitHub Actions), the progress shown on stderr while it runs, and
 * the reports written at its end through the command's one redactor.
 */
import { writeFile } from "node:fs/promises";
import type { Redactor } from "@photon-indexer-kit/runtime";
import type { ConfigReporter } from "../config.js";
import { UsageError } from "../errors.js";
import { prepareOutputFile } from "../outputs.js";
import { closingLines, consoleStyle } from "../reporters/console.js";
import { renderReport, type ReporterName } from "../reporters/index.js";
import { progressReporter, type Progress } from "../reporters/progress.js";
import type { RunSummary } from "../results.js";
import { reporterPairs } from "./options.js";

type Pairs = ReturnType<typeof reporterPairs>;

/** Reporters whose text is a log, which may share stdout with one another and with one report. */
const LOG_REPORTERS: ReadonlySet<string> = new Set(["console", "github"]);

export class Reports {
  /** The progress being shown on stderr, ended before the reports are written. */
  private shown: Progress | undefined;

  private constructor(private readonly pairs: Pairs) {}

  /**
   * The reporters the command line (else the config file) asked for. Two reports (json, junit, …)
   * on stdout would be one unreadable file.
   */
  static of(argv: readonly string[], configured?: readonly ConfigReporter[]): Reports {
    const pairs = reporterPairs(argv);
    if (pairs.length === 0 && configured) pairs.push(...configured.map((r) => ({ name: r.name as ReporterName, output: r.output })));
    const onStdout = pairs.filter((p) => p.output === null && !LOG_REPORTERS.has(p.name)).map((p) => p.name);
    if (onStdout.length > 1)
      throw new UsageError(`--reporter ${onStdout.join(" and --reporter ")} would both write to stdout: give all but one of them --output FILE`);
    if (pairs.length === 0) pairs.push({ name: "console", output: null });
    if (process.env.GITHUB_ACTIONS === "true" && !pairs.some((p) => p.name === "github")) pairs.push({ name: "github", output: null });
    return new Reports(pairs);
  }

  /** Makes every `--output` writable (outputs.ts): a place nothing can be written is a usage error. */
  async prepare(): Promise<void> {
    for (const { output } of this.pairs) if (output !== null) await prepareOutputFile(output);
  }

  private consoleOnStdout(): boolean {
    return this.pairs.some((p) => p.name === "console" && p.output === null);
  }

  /**
   * Progress on stderr (reporters/progress.ts) with a console report on stdout, or no report on
   * stdout at all; none beside a report on stdout (json, junit…), whose reader wants it alone.
   */
  progress(redact: Redactor, verbose = false, noun = "cases"): Progress | undefined {
    if (!this.consoleOnStdout() && !this.pairs.every((p) => p.output !== null)) return undefined;
    this.shown = progressReporter({ style: consoleStyle(process.stderr), verbose, noun, redact, write: (text) => process.stderr.write(text) });
    return this.shown;
  }

  /** Writes every report through the one redactor of this run. */
  async write(summary: RunSummary, redact: Redactor): Promise<void> {
    this.shown?.finish();
    this.shown = undefined;
    for (const { name, output } of this.pairs) {
      // Each string from outside is redacted, then escaped for its sink; the whole text once more after.
      const text = redact(renderReport(name, summary, output ? null : process.stdout, redact));
      if (output) await writeFile(output, text);
      else process.stdout.write(text);
    }
    // The verdict is always printed: without a console report on stdout, its closing lines alone
    // (on stdout when no report is there, else on stderr, so that a report on stdout stays whole).
    if (!this.consoleOnStdout()) {
      const stream = this.pairs.every((p) => p.output !== null) ? process.stdout : process.stderr;
      stream.write(redact(`${closingLines(summary, consoleStyle(stream)).join("\n")}\n`));
    }
  }
}
