/**
 * junit: one testcase per case for CI dashboards (Jenkins, GitLab), in the shape of Jenkins'
 * JUnit schema (test/fixtures/junit/jenkins-junit.xsd) plus the two attributes GitLab and
 * Surefire write: `file` on a testcase (the case file; a derived case's spec file, with the
 * JSON pointer of its method in `<system-out>`) and `message` on `<skipped>` (the reason).
 *
 * A failing case has one `<failure>`, every failed finding in its body; a case that failed or
 * warned has its request, a curl line and the response excerpt in `<system-out>`. Every string
 * goes through `forXml` (attributes and text alike): the report is well-formed XML 1.0 whatever
 * a target sent; only the newlines between lines are the reporter's own.
 */
import type { CaseResult, RunSummary } from "../results.js";
import { verdictOf } from "../verdict.js";
import { forXml as xml } from "./support/escape.js";
import { caseExchangeLines, coverageText, findingLines, identityRows, methodStatusText, notRunText, skipReason } from "./support/parts.js";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(r: CaseResult): string[] {
  const source = r.file ?? r.derivedFrom?.file;
  const file = source !== undefined ? ` file="${xml(source)}"` : "";
  const out = [`    <testcase name="${xml(r.id)}" classname="${xml(r.method)}" time="${seconds(r.durationMs)}"${file}>`];
  if (r.status === "skip") out.push(`      <skipped message="${xml(skipReason(r))}"/>`);
  const failed = r.required ? r.findings.filter((f) => f.status === "fail") : [];
  if (failed.length > 0) {
    const first = failed[0]!;
    const message = `${first.check}: ${first.message}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ""}`;
    const type = [...new Set(failed.map((f) => f.check))].join(",");
    const body = failed.map((f) => findingLines(f).map(xml).join("\n  ")).join("\n");
    out.push(`      <failure type="${xml(type)}" message="${xml(message)}">${body}</failure>`);
  }
  if (r.status === "fail" || r.status === "warn") {
    const warnings = r.findings.filter((f) => f.status === "warn" || (f.status === "fail" && !r.required)).map((f) => `warning: ${findingLines(f).join("; ")}`);
    const from = r.derivedFrom ? [`derived from ${r.derivedFrom.file}${r.derivedFrom.pointer}`] : [];
    const lines = [`${r.description}`, ...from, ...warnings, ...caseExchangeLines(r)];
    out.push(`      <system-out>${lines.map(xml).join("\n")}</system-out>`);
  }
  out.push(`    </testcase>`);
  return out;
}

export function renderJunit(summary: RunSummary): string {
  const suite = `${summary.spec.title} ${summary.spec.version}`;
  const failures = summary.results.filter((r) => r.status === "fail").length;
  const skipped = summary.results.filter((r) => r.status === "skip").length;
  // Cases not run are neither failures nor skips: no testcase, one property says how many and why.
  const listed = summary.results.filter((r) => r.status !== "notRun");
  const notRun = notRunText(summary);
  const total = listed.length;
  const property = (name: string, value: string) => `<property name="${xml(name)}" value="${xml(value)}"/>`;
  const properties = [
    property("target", summary.target),
    property("spec.sha256", summary.spec.sha256),
    ...identityRows(summary).map(([label, value]) => property(label.toLowerCase(), value)),
    ...(summary.notes ?? []).map((note) => property("note", note)),
    // Each method's standing (conformant, not conformant, not served, skipped; opted out and why).
    ...(summary.methods ?? []).map((m) => property(`method.${m.method}`, methodStatusText(m))),
    property("coverage", coverageText(summary)),
    ...(notRun ? [property("not run", notRun)] : []),
    property("verdict", verdictOf(summary)),
  ];
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="photon-conformance" tests="${total}" failures="${failures}" errors="0" time="${seconds(summary.durationMs)}">`,
    `  <testsuite name="${xml(suite)}" tests="${total}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${xml(summary.startedAt)}" time="${seconds(summary.durationMs)}">`,
    `    <properties>${properties.join("")}</properties>`,
  ];
  for (const r of listed) out.push(...testcase(r));
  if (summary.notes?.length) out.push(`    <system-out>${summary.notes.map((n) => xml(`note: ${n}`)).join("\n")}</system-out>`);
  out.push(`  </testsuite>`, `</testsuites>`);
  return `${out.join("\n")}\n`;
}
