/** markdown: a certificate naming the spec, the (redacted) target, the date and per-method results. */
import { stringifyJson } from "../../runtime/index.js";
import type { RunSummary } from "../model.js";
import { methodStats } from "./stats.js";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderMarkdown(summary: RunSummary): string {
  const c = summary.counts;
  const lines = [
    `# Conformance certificate`,
    "",
    `**Verdict: ${summary.passed ? "CONFORMANT" : "NOT CONFORMANT"}**`,
    "",
    `| | |`,
    `|---|---|`,
    `| Spec | ${cell(summary.spec.title)} ${summary.spec.version} |`,
    `| Spec sha256 | \`${summary.spec.sha256}\` |`,
    `| Target | \`${cell(summary.target)}\` |`,
    `| Date | ${summary.startedAt} |`,
    `| Cases | ${summary.results.length}: ${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped |`,
    `| Duration | ${(summary.durationMs / 1000).toFixed(1)} s |`,
    "",
    `## Results by method`,
    "",
    `| Method | Passed | Failed | Warned | Skipped | p50 ms | p95 ms |`,
    `|---|---|---|---|---|---|---|`,
    ...methodStats(summary).map((m) => `| \`${cell(m.method)}\` | ${m.counts.pass} | ${m.counts.fail} | ${m.counts.warn} | ${m.counts.skip} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} |`),
  ];
  if (summary.discovered !== undefined) {
    lines.push("", "## Fixtures discovered from the target", "", "```json", stringifyJson(summary.discovered), "```");
  }
  const problems = summary.results.filter((r) => r.status === "fail" || r.status === "warn");
  if (problems.length > 0) {
    lines.push("", `## Findings`, "", `| Case | Check | Status | Finding |`, `|---|---|---|---|`);
    for (const r of problems) {
      for (const f of r.findings.filter((x) => x.status === "fail" || x.status === "warn")) {
        const detail = [f.message, f.expected !== undefined ? `expected ${f.expected}` : "", f.actual !== undefined ? `actual ${f.actual}` : ""].filter(Boolean).join("; ");
        lines.push(`| \`${cell(r.id)}\` | ${f.check} | ${f.status} | ${cell(detail)} |`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
