/**
 * console: a progress bar on a TTY, plain lines otherwise (CI), colours unless NO_COLOR;
 * each failure with its case, check, expected vs actual and a curl line to reproduce it.
 */
import type { CaseResult, RunSummary } from "../model.js";
import { curlLine } from "./curl.js";
import { casesJudged } from "./stats.js";
import { forConsole, type Redact } from "./escape.js";

export interface ConsoleStyle {
  readonly color: boolean;
  readonly tty: boolean;
}

export function consoleStyle(stream: NodeJS.WriteStream): ConsoleStyle {
  const color = !process.env.NO_COLOR && !!stream.isTTY && process.env.TERM !== "dumb";
  return { color, tty: !!stream.isTTY && !process.env.CI };
}

const paint = (style: ConsoleStyle, code: number, text: string) => (style.color ? `\x1b[${code}m${text}\x1b[0m` : text);

const MARK = { pass: ["✓", 32], fail: ["✗", 31], warn: ["!", 33], skip: ["-", 90] } as const;

/**
 * One progress update: a bar redrawn in place on a TTY (a counter when the total is unknown),
 * a line per case otherwise. The case id is redacted (when given `redact`), then escaped.
 */
export function progressLine(style: ConsoleStyle, result: CaseResult, done: number, total: number | undefined, redact: Redact = (text) => text): string {
  const [mark, code] = MARK[result.status];
  const id = redact(result.id);
  const short = forConsole([...id].slice(0, 40).join("")).padEnd(40);
  if (style.tty && total === undefined) return `\r${done} checked ${short}`;
  if (style.tty) {
    const width = 30;
    const all = total ?? done;
    const filled = Math.round((done / all) * width);
    return `\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${all} ${short}${done === all ? "\n" : ""}`;
  }
  return `${paint(style, code, mark)} ${forConsole(id)} (${Math.round(result.durationMs)} ms)\n`;
}

/**
 * Every outside string (ids, descriptions, findings, the spec and the target) goes through
 * `forConsole`, so it stays on its line: each line starts as written here, and the verdict
 * line, last, is the only one that starts with `VERDICT:`.
 */
export function renderConsole(summary: RunSummary, style: ConsoleStyle): string {
  const lines: string[] = [];
  const problems = summary.results.filter((r) => r.status === "fail" || r.status === "warn");
  for (const r of problems) {
    const [mark, code] = MARK[r.status];
    lines.push("", `${paint(style, code, `${mark} ${forConsole(r.id)}`)}  ${forConsole(r.description)}`);
    for (const f of r.findings.filter((x) => x.status === "fail" || x.status === "warn")) {
      lines.push(`    ${forConsole(f.check)}: ${forConsole(f.message)}`);
      if (f.expected !== undefined) lines.push(`      expected: ${forConsole(f.expected)}`);
      if (f.actual !== undefined) lines.push(`      actual:   ${forConsole(f.actual)}`);
    }
    if (r.exchange) lines.push(`    reproduce${r.against ? " on --url (under test)" : ""}: ${curlLine(r.exchange.request)}`);
    if (r.against) lines.push(`    reproduce on --against (trusted): ${curlLine(r.against.request)}`);
  }
  const c = summary.counts;
  lines.push(
    "",
    `Spec ${forConsole(summary.spec.title)} ${forConsole(summary.spec.version)} against ${forConsole(summary.target)}`,
    `${casesJudged(summary)}: ${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped in ${(summary.durationMs / 1000).toFixed(1)} s`,
    summary.passed ? paint(style, 32, "VERDICT: CONFORMANT") : paint(style, 31, "VERDICT: NOT CONFORMANT"),
  );
  return `${lines.join("\n")}\n`;
}
