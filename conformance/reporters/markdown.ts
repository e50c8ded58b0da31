/**
 * markdown: a certificate naming the spec, the (redacted) target, the date, what was run
 * (tool, command, selection, fixtures, strict), notes and per-method results, then skipped
 * cases and findings folded in `<details>`. It fits a GitHub comment (65,536 characters)
 * whatever fails: every outside string is clipped, each list is capped ("…and N more") and the
 * whole text is held to a budget, so a long run's certificate is cut, never rejected.
 *
 * Every outside string goes through `forMarkdown` (or `forMarkdownCode`, or `forMarkdownJson`
 * in the fenced block): nothing a target sent renders as HTML, an image, a link, a heading or
 * emphasis, or breaks a table row. The only HTML is ours: `<details>`, `<summary>` (our own
 * counts) and the `<code>` of `forMarkdownCode`.
 */
import type { RunSummary } from "../results.js";
import { verdictOf } from "../verdict.js";
import { clip, forMarkdown, forMarkdownCode, forMarkdownJson } from "./support/escape.js";
import {
  countsText,
  coverageText,
  identityRows,
  methodCountsText,
  methodStatusText,
  notRunText,
  problemCases,
  shownFindings,
  skippedCases,
} from "./support/parts.js";
import { casesJudged, methodStats } from "./support/stats.js";

/** GitHub's limit on a comment's body. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** Kept free for the lines that close what the budget cut (`…and N more`, `</details>`). */
const RESERVE = 1_500;
/** Characters of an outside string shown in a cell, before escaping. */
const CELL = 300;
const MAX_NOTES = 20;
const MAX_METHODS = 100;
const MAX_SKIPPED = 50;
const MAX_FINDINGS = 200;

const text = (s: string) => forMarkdown(clip(s, CELL));
const code = (s: string) => forMarkdownCode(clip(s, CELL));

/** Characters left for the certificate's lines; a line that does not fit is not added. */
class Budget {
  private left = GITHUB_COMMENT_LIMIT - RESERVE;
  take(line: string): boolean {
    if (line.length + 1 > this.left) return false;
    this.left -= line.length + 1;
    return true;
  }
  /** A line of ours that must stand (a heading, a table head, a closing tag): counted, never refused. */
  force(line: string): string {
    this.left -= line.length + 1;
    return line;
  }
}

/** Rows for `items`, at most `cap` and as many as the budget holds, then "…and N more". */
function capped<T>(items: readonly T[], row: (item: T) => string, cap: number, budget: Budget, noun: string): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (out.length >= cap) break;
    const line = row(item);
    if (!budget.take(line)) break;
    out.push(line);
  }
  const rest = items.length - out.length;
  return rest > 0 ? [...out, "", `…and ${rest} more ${noun}.`] : out;
}

/** A `<details>` block around `body` (GitHub needs the blank lines to render markdown inside). */
const folded = (summary: string, head: readonly string[], rows: readonly string[], budget: Budget) => [
  ...[`<details><summary>${summary}</summary>`, "", ...head].map((line) => budget.force(line)),
  ...rows,
  ...["", `</details>`].map((line) => budget.force(line)),
];

export function renderMarkdown(summary: RunSummary): string {
  const budget = new Budget();
  const notRun = notRunText(summary);
  const lines: string[] = [];
  const add = (...more: string[]) => {
    for (const line of more) if (budget.take(line)) lines.push(line);
  };
  const keep = (...more: string[]) => lines.push(...more.map((line) => budget.force(line)));
  add(
    `# Conformance certificate`,
    "",
    `**Verdict: ${verdictOf(summary)}**`,
    "",
    `| | |`,
    `|---|---|`,
    `| Spec | ${text(summary.spec.title)} ${text(summary.spec.version)} |`,
    `| Spec sha256 | ${code(summary.spec.sha256)} |`,
    `| Target | ${code(summary.target)} |`,
    `| Date | ${text(summary.startedAt)} |`,
    `| Cases | ${casesJudged(summary)}: ${countsText(summary)} |`,
    `| Coverage | ${coverageText(summary)} |`,
    ...(notRun ? [`| Not run | ${text(notRun)} |`] : []),
    `| Duration | ${(summary.durationMs / 1000).toFixed(1)} s |`,
    ...(summary.methods?.length ? [`| Methods | ${text(methodCountsText(summary.methods))} |`] : []),
    ...identityRows(summary).map(([label, value]) => `| ${label} | ${code(value)} |`),
  );

  const notes = summary.notes ?? [];
  if (notes.length > 0) {
    keep("", `## Notes`, "");
    lines.push(...capped(notes, (n) => `- ${text(n)}`, MAX_NOTES, budget, "notes"));
  }

  // A run's certificate states each method's standing (`summary.methods`); diff and check have none, and no Status column.
  const standing = summary.methods ? new Map(summary.methods.map((m) => [m.method, methodStatusText(m)])) : null;
  const status = (method: string) => (standing ? ` ${standing.has(method) ? text(standing.get(method)!) : "—"} |` : "");
  keep(
    "",
    `## Results by method`,
    "",
    `| Method |${standing ? " Status |" : ""} Passed | Failed | Warned | Skipped | p50 ms | p95 ms |`,
    `|---|${standing ? "---|" : ""}---|---|---|---|---|---|`,
  );
  lines.push(
    ...capped(
      methodStats(summary),
      (m) =>
        `| ${code(m.method)} |${status(m.method)} ${m.counts.pass} | ${m.counts.fail} | ${m.counts.warn} | ${m.counts.skip} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} |`,
      MAX_METHODS,
      budget,
      "methods",
    ),
  );

  if (summary.discovered !== undefined) {
    const json = forMarkdownJson(summary.discovered);
    const shown = json.length <= 8_000 && budget.take(json);
    keep("", "## Fixtures discovered from the target", "");
    if (shown) lines.push("```json", json, "```");
    else keep(`${json.length} characters of JSON: see the JSON report (\`discoveredFixtures\`).`);
  }

  const problems = problemCases(summary);
  if (problems.length > 0) {
    const findings = problems.flatMap((r) => shownFindings(r).map((f) => ({ r, f })));
    const failed = findings.filter(({ f }) => f.status === "fail").length;
    const rows = capped(
      findings,
      ({ r, f }) => {
        const detail = [
          text(f.message),
          f.expected !== undefined ? `expected ${text(f.expected)}` : "",
          f.actual !== undefined ? `actual ${text(f.actual)}` : "",
        ]
          .filter(Boolean)
          .join("; ");
        return `| ${code(r.id)} | ${text(f.check)} | ${f.status} | ${detail} |`;
      },
      MAX_FINDINGS,
      budget,
      "findings (every one is in the JUnit, JSON and HTML reports)",
    );
    const title = `${failed} failed and ${findings.length - failed} warned findings in ${problems.length} cases`;
    keep("", `## Findings`, "");
    lines.push(...folded(title, [`| Case | Check | Status | Finding |`, `|---|---|---|---|`], rows, budget));
  }

  const skipped = skippedCases(summary);
  if (skipped.length > 0) {
    const rows = capped(skipped, (s) => `| ${code(s.id)} | ${text(s.reason)} |`, MAX_SKIPPED, budget, "skipped cases");
    keep("", `## Skipped cases`, "");
    lines.push(...folded(`${skipped.length} skipped`, [`| Case | Reason |`, `|---|---|`], rows, budget));
  }
  return `${lines.join("\n")}\n`;
}
