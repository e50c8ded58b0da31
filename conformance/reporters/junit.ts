/**
 * junit: one testcase per case, one failure per failed check, for CI dashboards. Every string
 * goes through `forXml` (attributes and text alike): the report is well-formed XML 1.0 whatever
 * a target sent; only the newlines between a finding's lines are the reporter's own.
 */
import type { RunSummary } from "../model.js";
import { forXml as xml } from "./escape.js";

export function renderJunit(summary: RunSummary): string {
  const suite = `${summary.spec.title} ${summary.spec.version}`;
  const failures = summary.results.filter((r) => r.status === "fail").length;
  const skipped = summary.results.filter((r) => r.status === "skip").length;
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="photon-conformance" tests="${summary.results.length}" failures="${failures}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(suite)}" tests="${summary.results.length}" failures="${failures}" skipped="${skipped}" timestamp="${xml(summary.startedAt)}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `    <properties><property name="target" value="${xml(summary.target)}"/><property name="spec.sha256" value="${xml(summary.spec.sha256)}"/><property name="verdict" value="${summary.passed ? "CONFORMANT" : "NOT CONFORMANT"}"/></properties>`,
  ];
  for (const r of summary.results) {
    out.push(`    <testcase name="${xml(r.id)}" classname="${xml(r.method)}" time="${(r.durationMs / 1000).toFixed(3)}">`);
    for (const f of r.findings) {
      if (f.status === "fail" && r.required) {
        const detail = [xml(f.message), f.expected !== undefined ? `expected: ${xml(f.expected)}` : "", f.actual !== undefined ? `actual: ${xml(f.actual)}` : ""].filter(Boolean).join("\n");
        out.push(`      <failure type="${xml(f.check)}" message="${xml(`${f.check}: ${f.message}`)}">${detail}</failure>`);
      }
    }
    if (r.status === "skip") out.push(`      <skipped/>`);
    const warnings = r.findings.filter((f) => f.status === "warn" || (f.status === "fail" && !r.required));
    if (warnings.length > 0) out.push(`      <system-out>${warnings.map((f) => xml(`warning: ${f.check}: ${f.message}`)).join("\n")}</system-out>`);
    out.push(`    </testcase>`);
  }
  out.push(`  </testsuite>`, `</testsuites>`);
  return `${out.join("\n")}\n`;
}
