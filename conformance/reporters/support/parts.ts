/**
 * What several reports show alike (the run's identity, skipped cases, a case's findings and
 * exchange), as plain text: redacted already (index.ts) and not yet escaped. Each reporter
 * passes every string from here through its own sink's function in escape.ts.
 */
import type { CaseResult, Exchange, Finding, RunIdentity, RunSummary } from "../../model.js";
import { curlLine } from "./curl.js";
import { clip } from "./escape.js";

/** How much of a request or response body a report quotes. */
export const BODY_EXCERPT = 2000;

export const isProblem = (s: { readonly status: string }): boolean => s.status === "fail" || s.status === "warn";

/** Cases that failed or warned. */
export const problemCases = (summary: RunSummary): CaseResult[] => summary.results.filter(isProblem);

/** The findings of a case a reader must see (failed or warned). */
export const shownFindings = (r: CaseResult): Finding[] => r.findings.filter(isProblem);

/** A finding as lines: `check: message`, then expected and actual when known. */
export function findingLines(f: Finding): string[] {
  return [
    `${f.check}: ${f.message}`,
    ...(f.expected !== undefined ? [`expected: ${f.expected}`] : []),
    ...(f.actual !== undefined ? [`actual: ${f.actual}`] : []),
  ];
}

export interface SkippedCase {
  readonly id: string;
  readonly file: string | undefined;
  readonly reason: string;
}

/** Why a case was skipped: its skip findings' messages. */
export const skipReason = (r: CaseResult): string =>
  r.findings
    .filter((f) => f.status === "skip")
    .map((f) => f.message)
    .join("; ") || "skipped";

/** Skipped cases with their reason. */
export function skippedCases(summary: RunSummary): SkippedCase[] {
  return summary.results.filter((r) => r.status === "skip").map((r) => ({ id: r.id, file: r.file, reason: skipReason(r) }));
}

/** `--case`, `--method` and `--shard` as one line, or "the whole corpus". */
export function selectionText(selection: RunIdentity["selection"]): string {
  const parts = [
    ...(selection.cases.length > 0 ? [`cases ${selection.cases.join(", ")}`] : []),
    ...(selection.methods.length > 0 ? [`methods ${selection.methods.join(", ")}`] : []),
    ...(selection.shard !== null ? [`shard ${selection.shard}`] : []),
  ];
  return parts.length > 0 ? parts.join("; ") : "the whole corpus";
}

/** The run's identity as label/value rows (empty when the summary has none). */
export function identityRows(summary: RunSummary): [label: string, value: string][] {
  const id = summary.identity;
  if (!id) return [];
  return [
    ["Tool", `${id.tool.name} ${id.tool.version}`],
    ["Command", id.command],
    ["Selection", selectionText(id.selection)],
    ["Fixtures", id.fixtures],
    ["Strict", id.strict ? "yes" : "no"],
  ];
}

/** "3 passed, 1 failed, 0 warned, 2 skipped". */
export function countsText(summary: RunSummary): string {
  const c = summary.counts;
  return `${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped`;
}

/** One side of an exchange as text: the request, a curl line to reproduce it, the response excerpt. */
export function exchangeLines(x: Exchange, side = ""): string[] {
  const lead = side ? `${side} ` : "";
  return [
    `${lead}request: ${x.request.method} ${x.request.url}`,
    ...(x.request.body ? [`${lead}request body: ${clip(x.request.body, BODY_EXCERPT)}`] : []),
    `${lead}reproduce: ${curlLine(x.request)}`,
    x.status === 0 ? `${lead}response: none (${x.error ?? "no answer"})` : `${lead}response: HTTP ${x.status} in ${Math.round(x.durationMs)} ms`,
    ...(x.text ? [`${lead}response body: ${clip(x.text, BODY_EXCERPT)}`] : []),
  ];
}

/** A case's exchanges as text (both sides for `diff`), empty when nothing was sent. */
export function caseExchangeLines(r: CaseResult): string[] {
  if (!r.exchange) return [];
  if (!r.against) return exchangeLines(r.exchange);
  return [...exchangeLines(r.exchange, "--url (under test)"), ...exchangeLines(r.against, "--against (trusted)")];
}
