/**
 * The console's progress on stderr while a command works: on a terminal one line redrawn in place
 * (at most every REDRAW_MS), elsewhere (CI logs) a count line every `intervalMs`; in both, each
 * failing case as it comes (the first MAX_LISTED_FAILURES; the report lists every one). With
 * `verbose`, a line per case instead. Cases not run are counted, never listed.
 */
import { noCases, type CaseCounts, type CaseResult } from "../results.js";
import { type ConsoleStyle, progressLine } from "./console.js";
import { forConsole, type Redact } from "./support/escape.js";

/** Counts printed this often without a terminal (CI logs). */
export const PROGRESS_INTERVAL_MS = 10_000;
/** A terminal's progress line is redrawn at most this often. */
const REDRAW_MS = 100;
/** Failing cases listed as they come; past this, only counted (the report lists every one). */
export const MAX_LISTED_FAILURES = 50;

export interface ProgressOptions {
  readonly style: ConsoleStyle;
  /** `--verbose`: a line per case. */
  readonly verbose?: boolean;
  readonly write: (text: string) => void;
  readonly redact?: Redact;
  /** What is counted: `cases` (run, diff) or `exchanges` (check). */
  readonly noun?: string;
  readonly intervalMs?: number;
  readonly now?: () => number;
}

/** `300/882 cases: 298 passed, 2 failed, 0 warned, 0 skipped (12.3 s)`; without a total, `300 exchanges: …`. */
function countsLine(counts: CaseCounts, done: number, total: number | undefined, noun: string, ms: number): string {
  const notRun = counts.notRun > 0 ? `, ${counts.notRun} not run` : "";
  const of = total === undefined ? `${done}` : `${done}/${total}`;
  return `${of} ${noun}: ${counts.pass} passed, ${counts.fail} failed, ${counts.warn} warned, ${counts.skip} skipped${notRun} (${(ms / 1000).toFixed(1)} s)`;
}

export interface Progress {
  /** Each settled case (`onResult`). */
  (r: CaseResult, done: number, total?: number): void;
  /** Ends a terminal's progress line left open (a total never reached, or none known), before the reports. */
  finish(): void;
}

/** A handler for each settled case, writing progress as described above. */
export function progressReporter(options: ProgressOptions): Progress {
  const { style, write, verbose = false, redact = (text: string) => text, noun = "cases" } = options;
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const started = now();
  const counts = noCases();
  let listed = 0;
  let lastDraw = -Infinity;
  let lastCount = started;
  let drawn = false; // a terminal line is on screen, to be cleared before another line
  const clear = () => (drawn ? "\r\x1b[2K" : "");
  const onResult = (r: CaseResult, done: number, total?: number): void => {
    counts[r.status]++;
    if (verbose) return void write(progressLine({ ...style, tty: false }, r, done, total, redact));
    const t = now();
    let out = "";
    if (r.status === "fail" && listed < MAX_LISTED_FAILURES) {
      out += clear() + progressLine({ ...style, tty: false }, r, done, total, redact);
      drawn = false;
      if (++listed === MAX_LISTED_FAILURES) out += `(${MAX_LISTED_FAILURES} failures listed; the rest are counted, and the report lists every one)\n`;
    }
    const last = total !== undefined && done === total;
    if (style.tty) {
      if (last || t - lastDraw >= REDRAW_MS || out) {
        out += `${clear()}${forConsole(countsLine(counts, done, total, noun, t - started))}${last ? "\n" : ""}`;
        drawn = !last;
        lastDraw = t;
      }
    } else if (t - lastCount >= interval) {
      out += `progress: ${countsLine(counts, done, total, noun, t - started)}\n`;
      lastCount = t;
    }
    if (out) write(redact(out));
  };
  return Object.assign(onResult, {
    finish() {
      if (drawn) write("\n");
      drawn = false;
    },
  });
}
