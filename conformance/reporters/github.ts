/** github: workflow-command annotations (chosen automatically when GITHUB_ACTIONS=true). */
import type { RunSummary } from "../model.js";

const escape = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const prop = (s: string) => escape(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

export function renderGithub(summary: RunSummary): string {
  const lines: string[] = [];
  for (const r of summary.results) {
    for (const f of r.findings) {
      if (f.status !== "fail" && f.status !== "warn") continue;
      const level = f.status === "fail" && r.required ? "error" : "warning";
      const detail = [f.message, f.expected !== undefined ? `expected: ${f.expected}` : "", f.actual !== undefined ? `actual: ${f.actual}` : ""].filter(Boolean).join("\n");
      lines.push(`::${level} title=${prop(`${r.id} (${f.check})`)}::${escape(detail)}`);
    }
  }
  const c = summary.counts;
  lines.push(`::notice title=${prop("photon-conformance")}::${escape(`${c.pass} passed, ${c.fail} failed, ${c.warn} warned against ${summary.target}`)}`);
  return `${lines.join("\n")}\n`;
}
