/** junit: one testcase per case, one failure per failed check, for CI dashboards. */
import type { RunSummary } from "../model.js";

const xml = (s: string) =>
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function renderJunit(summary: RunSummary): string {
  const suite = `${summary.spec.title} ${summary.spec.version}`;
  const failures = summary.results.filter((r) => r.status === "fail").length;
  const skipped = summary.results.filter((r) => r.status === "skip").length;
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="photon-conformance" tests="${summary.results.length}" failures="${failures}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(suite)}" tests="${summary.results.length}" failures="${failures}" skipped="${skipped}" timestamp="${summary.startedAt}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `    <properties><property name="target" value="${xml(summary.target)}"/><property name="spec.sha256" value="${summary.spec.sha256}"/></properties>`,
  ];
  for (const r of summary.results) {
    out.push(`    <testcase name="${xml(r.id)}" classname="${xml(r.method)}" time="${(r.durationMs / 1000).toFixed(3)}">`);
    for (const f of r.findings) {
      if (f.status === "fail" && r.required) {
        const detail = [f.message, f.expected !== undefined ? `expected: ${f.expected}` : "", f.actual !== undefined ? `actual: ${f.actual}` : ""].filter(Boolean).join("\n");
        out.push(`      <failure type="${xml(f.check)}" message="${xml(`${f.check}: ${f.message}`)}">${xml(detail)}</failure>`);
      }
    }
    if (r.status === "skip") out.push(`      <skipped/>`);
    const warnings = r.findings.filter((f) => f.status === "warn" || (f.status === "fail" && !r.required));
    if (warnings.length > 0) out.push(`      <system-out>${xml(warnings.map((f) => `warning: ${f.check}: ${f.message}`).join("\n"))}</system-out>`);
    out.push(`    </testcase>`);
  }
  out.push(`  </testsuite>`, `</testsuites>`);
  return `${out.join("\n")}\n`;
}
