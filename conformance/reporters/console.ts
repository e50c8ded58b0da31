/**
 * console: a progress bar on a TTY, plain lines otherwise (CI), colours unless NO_COLOR;
 * each failure with its case, check, expected vs actual and a curl line to reproduce it.
 */
import type { CaseResult, RunSummary } from "../model.js";
import { curlLine } from "./curl.js";

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

/** One progress update: a bar redrawn in place on a TTY (a counter when the total is unknown), a line per case otherwise. */
export function progressLine(style: ConsoleStyle, result: CaseResult, done: number, total: number | undefined): string {
  const [mark, code] = MARK[result.status];
  if (style.tty && total === undefined) return `\r${done} checked ${result.id.slice(0, 40).padEnd(40)}`;
  if (style.tty) {
    const width = 30;
    const all = total ?? done;
    const filled = Math.round((done / all) * width);
    return `\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${all} ${result.id.slice(0, 40).padEnd(40)}${done === all ? "\n" : ""}`;
  }
  return `${paint(style, code, mark)} ${result.id} (${Math.round(result.durationMs)} ms)\n`;
}

export function renderConsole(summary: RunSummary, style: ConsoleStyle): string {
  const lines: string[] = [];
  const problems = summary.results.filter((r) => r.status === "fail" || r.status === "warn");
  for (const r of problems) {
    const [mark, code] = MARK[r.status];
    lines.push("", `${paint(style, code, `${mark} ${r.id}`)}  ${r.description}`);
    for (const f of r.findings.filter((x) => x.status === "fail" || x.status === "warn")) {
      lines.push(`    ${f.check}: ${f.message}`);
      if (f.expected !== undefined) lines.push(`      expected: ${f.expected}`);
      if (f.actual !== undefined) lines.push(`      actual:   ${f.actual}`);
    }
    if (r.exchange) lines.push(`    reproduce: ${curlLine(r.exchange.request)}`);
  }
  const c = summary.counts;
  lines.push(
    "",
    `${summary.spec.title} ${summary.spec.version} against ${summary.target}`,
    `${summary.results.length} cases: ${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped in ${(summary.durationMs / 1000).toFixed(1)} s`,
    summary.passed ? paint(style, 32, "VERDICT: CONFORMANT") : paint(style, 31, "VERDICT: NOT CONFORMANT"),
  );
  return `${lines.join("\n")}\n`;
}
