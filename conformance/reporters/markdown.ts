/**
 * markdown: a certificate naming the spec, the (redacted) target, the date and per-method
 * results. Every outside string goes through `forMarkdown` (or `forMarkdownCode`, or
 * `forMarkdownJson` in the fenced block): nothing a target sent renders as HTML, an image, a
 * link, a heading or emphasis, or breaks a table row.
 */
import type { RunSummary } from "../model.js";
import { forMarkdown as text, forMarkdownCode as code, forMarkdownJson } from "./escape.js";
import { casesJudged, methodStats } from "./stats.js";

export function renderMarkdown(summary: RunSummary): string {
  const c = summary.counts;
  const lines = [
    `# Conformance certificate`,
    "",
    `**Verdict: ${summary.passed ? "CONFORMANT" : "NOT CONFORMANT"}**`,
    "",
    `| | |`,
    `|---|---|`,
    `| Spec | ${text(summary.spec.title)} ${text(summary.spec.version)} |`,
    `| Spec sha256 | ${code(summary.spec.sha256)} |`,
    `| Target | ${code(summary.target)} |`,
    `| Date | ${text(summary.startedAt)} |`,
    `| Cases | ${casesJudged(summary)}: ${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped |`,
    `| Duration | ${(summary.durationMs / 1000).toFixed(1)} s |`,
    "",
    `## Results by method`,
    "",
    `| Method | Passed | Failed | Warned | Skipped | p50 ms | p95 ms |`,
    `|---|---|---|---|---|---|---|`,
    ...methodStats(summary).map((m) => `| ${code(m.method)} | ${m.counts.pass} | ${m.counts.fail} | ${m.counts.warn} | ${m.counts.skip} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} |`),
  ];
  if (summary.discovered !== undefined) {
    lines.push("", "## Fixtures discovered from the target", "", "```json", forMarkdownJson(summary.discovered), "```");
  }
  const problems = summary.results.filter((r) => r.status === "fail" || r.status === "warn");
  if (problems.length > 0) {
    lines.push("", `## Findings`, "", `| Case | Check | Status | Finding |`, `|---|---|---|---|`);
    for (const r of problems) {
      for (const f of r.findings.filter((x) => x.status === "fail" || x.status === "warn")) {
        const detail = [text(f.message), f.expected !== undefined ? `expected ${text(f.expected)}` : "", f.actual !== undefined ? `actual ${text(f.actual)}` : ""].filter(Boolean).join("; ");
        lines.push(`| ${code(r.id)} | ${text(f.check)} | ${f.status} | ${detail} |`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
