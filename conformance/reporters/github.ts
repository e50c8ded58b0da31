/**
 * github: workflow-command annotations (chosen automatically when GITHUB_ACTIONS=true), each
 * pointing at its case file (`file=conformance/cases/….yaml`, relative to the working
 * directory; a derived case's spec file, its method's JSON pointer in the message) so that
 * GitHub shows it on the file; and, when `$GITHUB_STEP_SUMMARY` names a
 * file, the markdown certificate appended to it (the job's summary page).
 *
 * Each outside string is shown escaped (`forConsole`: its own newlines as `\n`), then the whole
 * data and each property get the workflow-command encoding, so that no message can end its
 * command and start another (`::error`, `::set-output`, `::add-mask`…): one line per annotation.
 * The run's notes follow the verdict in its notice.
 */
import { appendFileSync } from "node:fs";
import type { RunSummary } from "../results.js";
import { verdictOf } from "../verdict.js";
import { forConsole, forGithubData, forGithubProperty, type Redact } from "./support/escape.js";
import { renderMarkdown } from "./markdown.js";
import { countsText, coverageLine, isProblem, methodCountsText, methodStatusText, notableMethods, notRunText } from "./support/parts.js";

/**
 * The annotations; with `stepSummary` (a file path, `$GITHUB_STEP_SUMMARY` by default) the
 * certificate is appended there too, passed through `finish` (the output edge's redactor). A
 * summary file that cannot be written is a warning annotation, not a failed run.
 */
export function renderGithub(summary: RunSummary, stepSummary: string | undefined = process.env.GITHUB_STEP_SUMMARY, finish: Redact = (t) => t): string {
  const lines: string[] = [];
  for (const r of summary.results) {
    for (const f of r.findings.filter(isProblem)) {
      const level = f.status === "fail" && r.required ? "error" : "warning";
      const detail = [
        forConsole(f.message),
        f.expected !== undefined ? `expected: ${forConsole(f.expected)}` : "",
        f.actual !== undefined ? `actual: ${forConsole(f.actual)}` : "",
        r.derivedFrom ? `derived from ${forConsole(`${r.derivedFrom.file}${r.derivedFrom.pointer}`)}` : "",
      ]
        .filter(Boolean)
        .join("\n");
      const source = r.file ?? r.derivedFrom?.file;
      const file = source !== undefined ? `file=${forGithubProperty(source)},` : "";
      lines.push(`::${level} ${file}title=${forGithubProperty(`${r.id} (${f.check})`)}::${forGithubData(detail)}`);
    }
  }
  // A method not served and not opted out fails the verdict on its own: one error each.
  for (const m of summary.methods ?? []) {
    if (m.fails)
      lines.push(`::error title=${forGithubProperty(`photon-conformance (${m.method})`)}::${forGithubData(forConsole(`${m.method}: ${methodStatusText(m)}`))}`);
  }
  if (stepSummary) {
    try {
      appendFileSync(stepSummary, `${finish(renderMarkdown(summary))}\n`);
    } catch (err) {
      lines.push(
        `::warning title=photon-conformance::${forGithubData(`could not append the certificate to $GITHUB_STEP_SUMMARY: ${forConsole((err as Error).message)}`)}`,
      );
    }
  }
  const verdict = `VERDICT: ${verdictOf(summary)}`;
  const notRun = notRunText(summary);
  const coverage = coverageLine(summary);
  const methods = summary.methods?.length
    ? [
        `methods: ${methodCountsText(summary.methods)}`,
        ...notableMethods(summary.methods).map((m) => `${forConsole(m.method)}: ${forConsole(methodStatusText(m))}`),
      ]
    : [];
  const notes = [
    ...(notRun ? [forConsole(notRun)] : []),
    ...(coverage ? [forConsole(coverage)] : []),
    ...methods,
    ...(summary.notes ?? []).map((n) => `note: ${forConsole(n)}`),
  ];
  lines.push(
    `::notice title=photon-conformance::${forGithubData([`${verdict} (${countsText(summary)}) against ${forConsole(summary.target)}`, ...notes].join("\n"))}`,
  );
  return `${lines.join("\n")}\n`;
}
