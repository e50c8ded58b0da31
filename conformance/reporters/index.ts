/** Reporters by name: each renders a finished run; none re-judges it. */
import type { RunSummary } from "../results.js";
import { consoleStyle, renderConsole } from "./console.js";
import { redactSummary, type Redact } from "./support/escape.js";
import { renderGithub } from "./github.js";
import { renderHtml } from "./html.js";
import { renderJson } from "./json.js";
import { renderJunit } from "./junit.js";
import { renderMarkdown } from "./markdown.js";

export const reporterNames = ["console", "json", "junit", "github", "markdown", "html"] as const;
export type ReporterName = (typeof reporterNames)[number];

/**
 * `stream` is where the text goes (for colours); null for a file. `redact` masks secrets in
 * each outside string before the reporter escapes it for its sink (see support/escape.ts); a pass
 * over the finished text (cli/reporters.ts) may follow as a second net.
 */
export function renderReport(name: ReporterName, run: RunSummary, stream: NodeJS.WriteStream | null, redact?: Redact): string {
  const summary = redact ? redactSummary(run, redact) : run;
  switch (name) {
    case "console":
      return renderConsole(summary, stream ? consoleStyle(stream) : { color: false, tty: false });
    case "json":
      return renderJson(summary);
    case "junit":
      return renderJunit(summary);
    case "github":
      // With $GITHUB_STEP_SUMMARY set, the certificate is appended there too, redacted again as a whole.
      return renderGithub(summary, process.env.GITHUB_STEP_SUMMARY, redact);
    case "markdown":
      return renderMarkdown(summary);
    case "html":
      return renderHtml(summary);
  }
}
