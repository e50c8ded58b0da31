/**
 * github: workflow-command annotations (chosen automatically when GITHUB_ACTIONS=true). Each
 * outside string is shown escaped (`forConsole`: its own newlines as `\n`), then the whole
 * data and each property get the workflow-command encoding, so that no message can end its
 * command and start another (`::error`, `::set-output`, `::add-mask`…): one line per annotation.
 */
import type { RunSummary } from "../model.js";
import { forConsole, forGithubData, forGithubProperty } from "./escape.js";

export function renderGithub(summary: RunSummary): string {
  const lines: string[] = [];
  for (const r of summary.results) {
    for (const f of r.findings) {
      if (f.status !== "fail" && f.status !== "warn") continue;
      const level = f.status === "fail" && r.required ? "error" : "warning";
      const detail = [forConsole(f.message), f.expected !== undefined ? `expected: ${forConsole(f.expected)}` : "", f.actual !== undefined ? `actual: ${forConsole(f.actual)}` : ""].filter(Boolean).join("\n");
      lines.push(`::${level} title=${forGithubProperty(`${r.id} (${f.check})`)}::${forGithubData(detail)}`);
    }
  }
  const c = summary.counts;
  const verdict = summary.passed ? "VERDICT: CONFORMANT" : "VERDICT: NOT CONFORMANT";
  lines.push(`::notice title=photon-conformance::${forGithubData(`${verdict} (${c.pass} passed, ${c.fail} failed, ${c.warn} warned) against ${forConsole(summary.target)}`)}`);
  return `${lines.join("\n")}\n`;
}
