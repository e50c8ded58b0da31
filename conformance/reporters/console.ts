/**
 * console: a progress bar on a TTY, plain lines otherwise (CI), colours unless NO_COLOR;
 * each failure with its case, check, expected vs actual and a curl line to reproduce it; then
 * the skipped cases with their reasons, where a failing run failed (per check, per method),
 * the run's notes and what was run (tool, spec, selection, fixtures, --strict).
 */
import { RUN_WIDE_METHOD, type CaseResult, type RunIdentity, type RunSummary } from "../results.js";
import { verdictOf } from "../verdict.js";
import { curlLine } from "./support/curl.js";
import { casesJudged, failureGroups } from "./support/stats.js";
import { forConsole, type Redact } from "./support/escape.js";
import { countsText, coverageLine, methodCountsText, methodStatusText, notableMethods, notRunText, verdictOutcome } from "./support/parts.js";

export interface ConsoleStyle {
  readonly color: boolean;
  readonly tty: boolean;
}

export function consoleStyle(stream: NodeJS.WriteStream): ConsoleStyle {
  const color = !process.env.NO_COLOR && !!stream.isTTY && process.env.TERM !== "dumb";
  return { color, tty: !!stream.isTTY && !process.env.CI };
}

const paint = (style: ConsoleStyle, code: number, text: string) => (style.color ? `\x1b[${code}m${text}\x1b[0m` : text);

const MARK = { pass: ["✓", 32], fail: ["✗", 31], warn: ["!", 33], skip: ["-", 90], notRun: ["·", 90] } as const;
const VERDICT_COLOUR = { pass: 32, fail: 31, warn: 33 } as const;

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
  if (result.status === "notRun") return ""; // counted in the summary, never listed one by one
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
  lines.push(...skippedLines(summary), ...failureLines(summary), ...methodLines(summary));
  if (summary.notes?.length) lines.push("", ...summary.notes.map((note) => `note: ${forConsole(note)}`));
  lines.push(
    "",
    `Spec ${forConsole(summary.spec.title)} ${forConsole(summary.spec.version)} (sha256 ${forConsole(summary.spec.sha256.slice(0, 12))}) against ${forConsole(summary.target)}`,
    ...(summary.identity ? [identityLine(summary.identity)] : []),
    ...closingLines(summary, style),
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The last lines of every console report, printed alone when no console report is on stdout:
 * the cases not run (counted), the counts, the coverage when some case did not run, the verdict.
 */
export function closingLines(summary: RunSummary, style: ConsoleStyle): string[] {
  const notRun = notRunText(summary);
  const coverage = coverageLine(summary);
  return [
    ...(notRun ? [forConsole(notRun)] : []),
    `${casesJudged(summary)}: ${countsText(summary)} in ${(summary.durationMs / 1000).toFixed(1)} s`,
    ...(coverage ? [forConsole(coverage)] : []),
    verdictLine(summary, style),
  ];
}

/** `VERDICT: …`, coloured by outcome: the last line of the console report (diff's says what it compared). */
export function verdictLine(summary: RunSummary, style: ConsoleStyle): string {
  const verdict = verdictOf(summary);
  return paint(style, VERDICT_COLOUR[verdictOutcome(verdict)], diffVerdict(summary) ?? `VERDICT: ${verdict}`);
}

/**
 * diff's closing line: the two targets compared and whether they agree, over the cases compared
 * (its run-wide results, such as the inconclusive tally, are not cases); null for other commands.
 */
export function diffVerdict(summary: RunSummary): string | null {
  const { url, against } = summary.options;
  if (summary.identity?.command !== "diff" || typeof url !== "string" || typeof against !== "string") return null;
  const sides = `${forConsole(url)} (under test, --url) and ${forConsole(against)} (trusted, --against)`;
  const cases = summary.results.filter((r) => r.method !== RUN_WIDE_METHOD);
  const compared = cases.filter((r) => r.status === "pass" || r.status === "warn" || r.status === "fail").length;
  const differ = cases.filter((r) => r.status === "fail").length;
  const skipped = cases.length - compared;
  const counted = `${compared} case${compared === 1 ? "" : "s"} compared${skipped > 0 ? `, ${skipped} not` : ""}`;
  if (summary.passed) return `VERDICT: AGREE: ${sides} answer alike (${counted})`;
  if (differ > 0) return `VERDICT: DIFFER: ${sides} differ in ${differ} of ${counted}`;
  const why = summary.results.filter((r) => r.method === RUN_WIDE_METHOD && r.status === "fail").map((r) => forConsole(r.id));
  return `VERDICT: NOT SHOWN TO AGREE: ${sides} (${counted}; failed: ${why.join(", ") || "see above"})`;
}

/** Cases listed by name per reason; past this, "and N more". */
const MAX_SKIPPED_IDS = 10;

/** `skipped: N`, then each reason once with the cases it skipped. */
function skippedLines(summary: RunSummary): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of summary.results) {
    if (r.status !== "skip") continue;
    const reason =
      r.findings
        .filter((f) => f.status === "skip")
        .map((f) => f.message)
        .join("; ") || "skipped";
    byReason.set(reason, [...(byReason.get(reason) ?? []), r.id]);
  }
  if (byReason.size === 0) return [];
  const lines = ["", `skipped: ${summary.counts.skip}`];
  for (const [reason, ids] of byReason) {
    if (ids.length === 1) {
      lines.push(`    ${forConsole(ids[0]!)}: ${forConsole(reason)}`);
      continue;
    }
    const more = ids.length > MAX_SKIPPED_IDS ? `, and ${ids.length - MAX_SKIPPED_IDS} more` : "";
    lines.push(`    ${ids.length} cases: ${forConsole(reason)}`, `      ${ids.slice(0, MAX_SKIPPED_IDS).map(forConsole).join(", ")}${more}`);
  }
  return lines;
}

/** For a failing run: failing cases per check and per method, most first. */
function failureLines(summary: RunSummary): string[] {
  if (summary.counts.fail === 0) return [];
  const { byCheck, byMethod } = failureGroups(summary);
  const list = (groups: [string, number][]) => groups.map(([name, n]) => `${forConsole(name)} ${n}`).join(", ");
  return ["", `failing ${summary.tally ? "findings" : "cases"} by check: ${list(byCheck)}`, `failing cases by method: ${list(byMethod)}`];
}

/** `methods: 36 conformant, 2 not served (2 opted out)`, then each method not plainly conformant with its standing. */
function methodLines(summary: RunSummary): string[] {
  if (!summary.methods?.length) return [];
  const named = notableMethods(summary.methods).map((m) => `    ${forConsole(m.method)}: ${forConsole(methodStatusText(m))}`);
  return ["", `methods: ${methodCountsText(summary.methods)}`, ...named];
}

/** What was run: `Run: photon-indexer-kit 0.1.0 run · cases: all · fixtures: reference · strict: off`. */
export function identityLine(identity: RunIdentity): string {
  const { cases, methods, shard } = identity.selection;
  const selection = [...cases.map((g) => `--case ${g}`), ...methods.map((m) => `--method ${m}`), ...(shard ? [`--shard ${shard}`] : [])];
  return forConsole(
    `Run: ${identity.tool.name} ${identity.tool.version} ${identity.command} · cases: ${selection.length > 0 ? selection.join(" ") : "all"} · fixtures: ${identity.fixtures} · strict: ${identity.strict ? "on" : "off"}`,
  );
}
