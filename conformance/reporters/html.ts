/**
 * html: one self-contained page (inline CSS, no script, no network, system fonts): the verdict
 * first, right after it each failing or warning case expandable (`<details>`) with its findings,
 * request, response and a curl line, then the run's identity and notes, a method × check matrix
 * coloured by outcome, per-method latency (p50/p95, an inline SVG bar chart) and the skipped cases.
 *
 * Every outside string goes through `forHtml` (text and quoted attribute values alike): nothing
 * a target sent becomes markup. The Content-Security-Policy allows no script, no request and
 * no image but `data:`, so even a missed escape could neither run code nor call out.
 */
import type { CaseResult, Exchange, MethodVerdict, RunSummary, Status } from "../results.js";
import { verdictOf } from "../verdict.js";
import { curlLine } from "./support/curl.js";
import { clip, forHtml as h } from "./support/escape.js";
import {
  BODY_EXCERPT,
  countsText,
  coverageText,
  identityRows,
  methodCountsText,
  methodOutcome,
  methodStatusText,
  notRunText,
  problemCases,
  verdictOutcome,
  shownFindings,
  skippedCases,
} from "./support/parts.js";
import { casesJudged, methodRow, methodStats, type MethodStats } from "./support/stats.js";

export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Cases shown expanded at most (a `check` of a large capture lists up to 2,000). */
const MAX_DETAILS = 500;
const STATUSES: readonly Status[] = ["fail", "warn", "pass", "skip"];
const LABEL: Readonly<Record<Status, string>> = { pass: "passed", fail: "failed", warn: "warned", skip: "skipped" };
const CHECK_ORDER = ["http", "envelope", "schema", "errors", "pagination", "semantics"];

const STYLE = `
:root{--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;--skip:#57606a;--skip-bg:#eaeef2;--line:#d0d7de}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:1200px;margin:0 auto;padding:16px 24px 48px}
h1{margin:0;font-size:28px;letter-spacing:.02em}
h2{font-size:18px;margin:28px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px;white-space:pre-wrap;word-break:break-all;margin:4px 0 10px}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
.verdict{padding:18px 24px;border-radius:8px;color:#fff;margin:8px 0 12px}
.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}.verdict.warn{background:var(--warn)}
.verdict p{margin:6px 0 0;font-size:15px}
.identity td:first-child{font-weight:600;white-space:nowrap}
.matrix td{text-align:center;min-width:92px;font-variant-numeric:tabular-nums}
.matrix td.method{text-align:left;font-family:ui-monospace,monospace}
td.pass{background:var(--pass-bg);color:var(--pass)}td.fail{background:var(--fail-bg);color:var(--fail);font-weight:600}
td.warn{background:var(--warn-bg);color:var(--warn)}td.skip{background:var(--skip-bg);color:var(--skip)}td.none{background:#fff;color:#8c959f}
.n{display:inline-block;margin:0 3px}
.legend span{display:inline-block;padding:1px 8px;border-radius:10px;margin-right:6px;font-size:12px}
.badge{display:inline-block;min-width:44px;text-align:center;border-radius:10px;padding:0 6px;font-size:12px;font-weight:600;margin-right:6px}
.badge.fail{background:var(--fail-bg);color:var(--fail)}.badge.warn{background:var(--warn-bg);color:var(--warn)}.badge.skip{background:var(--skip-bg);color:var(--skip)}.badge.pass{background:var(--pass-bg);color:var(--pass)}
details{background:#fff;border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:6px 10px}
summary{cursor:pointer}
details h4{margin:10px 0 2px;font-size:13px}
ul.findings{margin:6px 0;padding-left:20px}
.muted{color:#57606a}
svg text{font:12px ui-monospace,monospace;fill:#1f2328}
`;

/** The worst outcome in a cell: it colours the cell. */
const worst = (counts: Readonly<Record<Status, number>>): Status | "none" => STATUSES.find((s) => counts[s] > 0) ?? "none";

/** A finding's outcome as the reader should count it: a non-required case's failure is a warning. */
const outcome = (r: CaseResult, status: Status): Status => (status === "fail" && !r.required ? "warn" : status);

interface Matrix {
  readonly methods: string[];
  readonly checks: string[];
  readonly cells: Map<string, Record<Status, number>>;
}

function matrixOf(summary: RunSummary): Matrix {
  const cells = new Map<string, Record<Status, number>>();
  const methods = new Set<string>();
  const checks = new Set<string>();
  for (const r of summary.results) {
    const row = methodRow(r.method);
    methods.add(row);
    for (const f of r.findings) {
      checks.add(f.check);
      const key = JSON.stringify([row, f.check]);
      const cell = cells.get(key) ?? { pass: 0, fail: 0, warn: 0, skip: 0 };
      cell[outcome(r, f.status)]++;
      cells.set(key, cell);
    }
  }
  const rank = (c: string) => (CHECK_ORDER.includes(c) ? CHECK_ORDER.indexOf(c) : CHECK_ORDER.length);
  return {
    // Spec methods first, then the protocol and run-wide rows.
    methods: [...methods].sort((a, b) => Number(a.startsWith("(")) - Number(b.startsWith("(")) || a.localeCompare(b)),
    checks: [...checks].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)),
    cells,
  };
}

/** The matrix, with each spec method's standing (conformant, not conformant, not served, skipped; opted out) in its second column. */
function matrixTable(m: Matrix, verdicts: readonly MethodVerdict[] = []): string {
  const byMethod = new Map(verdicts.map((v) => [v.method, v]));
  const head = `<tr><th>method \\ check</th><th>status</th>${m.checks.map((c) => `<th>${h(c)}</th>`).join("")}</tr>`;
  const standing = (method: string): string => {
    const v = byMethod.get(method);
    return v ? `<td class="${methodOutcome(v)}" data-status="${h(v.status)}">${h(methodStatusText(v))}</td>` : `<td class="none">·</td>`;
  };
  const rows = m.methods.map((method) => {
    const cells = m.checks.map((check) => {
      const counts = m.cells.get(JSON.stringify([method, check]));
      if (!counts) return `<td class="none" title="not checked">·</td>`;
      const shown = STATUSES.filter((s) => counts[s] > 0).map((s) => `<span class="n">${counts[s]} ${LABEL[s]}</span>`);
      const title = STATUSES.map((s) => `${counts[s]} ${LABEL[s]}`).join(", ");
      return `<td class="${worst(counts)}" data-method="${h(method)}" data-check="${h(check)}" title="${h(title)}">${shown.join("")}</td>`;
    });
    return `<tr><td class="method">${h(method)}</td>${standing(method)}${cells.join("")}</tr>`;
  });
  return `<table class="matrix" id="matrix-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

/** Horizontal bars per method: p50 dark, p95 light behind it, scaled to the slowest p95. */
function latencyChart(stats: readonly MethodStats[]): string {
  const timed = stats.filter((s) => s.p95 > 0 || s.p50 > 0);
  if (timed.length === 0) return `<p class="muted">No timed exchanges.</p>`;
  const label = 260;
  const width = 420;
  const row = 22;
  const max = Math.max(...timed.map((s) => s.p95), 1);
  const bars = timed.map((s, i) => {
    const y = i * row + 4;
    const w95 = Math.max(1, (s.p95 / max) * width);
    const w50 = Math.max(1, (s.p50 / max) * width);
    return [
      `<text x="${label - 8}" y="${y + 13}" text-anchor="end">${h(clip(s.method, 34))}</text>`,
      `<rect x="${label}" y="${y}" width="${w95.toFixed(1)}" height="16" fill="#8fb8e8"/>`,
      `<rect x="${label}" y="${y + 4}" width="${w50.toFixed(1)}" height="8" fill="#0b5cad"/>`,
      `<text x="${(label + w95 + 6).toFixed(1)}" y="${y + 13}">${s.p50.toFixed(1)} / ${s.p95.toFixed(1)} ms</text>`,
    ].join("");
  });
  const height = timed.length * row + 8;
  return `<svg role="img" aria-label="p50 and p95 latency per method" width="${label + width + 140}" height="${height}" viewBox="0 0 ${label + width + 140} ${height}" xmlns="http://www.w3.org/2000/svg">${bars.join("")}</svg><p class="muted">Dark bar: p50; light bar: p95 (over the listed cases' exchanges).</p>`;
}

function latencyTable(stats: readonly MethodStats[]): string {
  const rows = stats.map(
    (s) =>
      `<tr><td><code>${h(s.method)}</code></td><td>${s.p50.toFixed(1)}</td><td>${s.p95.toFixed(1)}</td>${STATUSES.map((st) => `<td>${s.counts[st]}</td>`).join("")}</tr>`,
  );
  return `<table id="latency-table"><thead><tr><th>method</th><th>p50 ms</th><th>p95 ms</th>${STATUSES.map((s) => `<th>${LABEL[s]}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

const pre = (text: string) => `<pre>${h(text)}</pre>`;

function exchangeBlocks(x: Exchange, side: string): string {
  const request = [
    `${x.request.method} ${x.request.url}`,
    ...Object.entries(x.request.headers).map(([k, v]) => `${k}: ${v}`),
    ...(x.request.body ? ["", clip(x.request.body, BODY_EXCERPT)] : []),
  ];
  const response =
    x.status === 0
      ? [`no response: ${x.error ?? "no answer"}`]
      : [
          `HTTP ${x.status} in ${Math.round(x.durationMs)} ms`,
          ...Object.entries(x.headers).map(([k, v]) => `${k}: ${v}`),
          ...(x.text ? ["", clip(x.text, BODY_EXCERPT)] : []),
        ];
  return `<h4>Request${h(side)}</h4><pre>${request.map(h).join("\n")}</pre><h4>Response${h(side)}</h4><pre>${response.map(h).join("\n")}</pre><h4>Reproduce${h(side)}</h4>${pre(curlLine(x.request))}`;
}

function caseDetails(r: CaseResult): string {
  const status = r.status;
  const findings = shownFindings(r).map((f) => {
    const extra = [
      f.expected !== undefined ? `<br><span class="muted">expected</span> <code>${h(clip(f.expected, BODY_EXCERPT))}</code>` : "",
      f.actual !== undefined ? `<br><span class="muted">actual</span> <code>${h(clip(f.actual, BODY_EXCERPT))}</code>` : "",
    ].join("");
    return `<li><span class="badge ${outcome(r, f.status)}">${h(f.check)}</span>${h(f.message)}${extra}</li>`;
  });
  const exchanges = r.exchange
    ? r.against
      ? exchangeBlocks(r.exchange, " (--url, under test)") + exchangeBlocks(r.against, " (--against, trusted)")
      : exchangeBlocks(r.exchange, "")
    : `<p class="muted">No request was sent for this case.</p>`;
  const file =
    r.file !== undefined
      ? `<p class="muted">case file <code>${h(r.file)}</code></p>`
      : r.derivedFrom !== undefined
        ? `<p class="muted">derived from <code>${h(`${r.derivedFrom.file}${r.derivedFrom.pointer}`)}</code></p>`
        : "";
  return `<details class="case ${status}"><summary><span class="badge ${status}">${status.toUpperCase()}</span><code>${h(r.id)}</code> <span class="muted">${h(r.description)}</span></summary>${file}<ul class="findings">${findings.join("")}</ul>${exchanges}</details>`;
}

export function renderHtml(summary: RunSummary): string {
  const verdict = verdictOf(summary);
  const notRun = notRunText(summary);
  const stats = methodStats(summary);
  const problems = problemCases(summary);
  const skipped = skippedCases(summary);
  const rows: [string, string][] = [
    ["Spec", `${summary.spec.title} ${summary.spec.version}`],
    ["Spec sha256", summary.spec.sha256],
    ["Target", summary.target],
    ["Date", summary.startedAt],
    ["Duration", `${(summary.durationMs / 1000).toFixed(1)} s`],
    ["Cases", `${casesJudged(summary)}: ${countsText(summary)}`],
    ["Coverage", coverageText(summary)],
    ...(notRun ? ([["Not run", notRun]] as [string, string][]) : []),
    ...identityRows(summary),
  ];
  const notes = summary.notes ?? [];
  const shownProblems = problems.slice(0, MAX_DETAILS);
  const body = [
    `<header class="verdict ${verdictOutcome(verdict)}" id="verdict"><h1>VERDICT: ${verdict}</h1><p>${h(`${summary.spec.title} ${summary.spec.version}`)} against <code>${h(summary.target)}</code> — ${h(casesJudged(summary))}: ${h(countsText(summary))}; ${h(coverageText(summary))}</p></header>`,
    `<section id="failures"><h2>Failures and warnings (${problems.length})</h2>${problems.length === 0 ? `<p class="muted">None.</p>` : ""}${shownProblems.map(caseDetails).join("\n")}${problems.length > shownProblems.length ? `<p class="muted">…and ${problems.length - shownProblems.length} more: every one is in the JUnit and JSON reports.</p>` : ""}</section>`,
    `<section id="identity"><h2>Run</h2><table class="identity">${rows.map(([k, v]) => `<tr><td>${h(k)}</td><td><code>${h(v)}</code></td></tr>`).join("")}</table></section>`,
    notes.length > 0 ? `<section id="notes"><h2>Notes</h2><ul>${notes.map((n) => `<li>${h(n)}</li>`).join("")}</ul></section>` : "",
    `<section id="matrix"><h2>Methods × checks</h2><p class="legend"><span class="badge fail">failed</span><span class="badge warn">warned</span><span class="badge pass">passed</span><span class="badge skip">skipped</span> findings per cell; a cell takes the colour of its worst outcome.</p>${summary.methods?.length ? `<p id="method-status">Methods: ${h(methodCountsText(summary.methods))}</p>` : ""}${matrixTable(matrixOf(summary), summary.methods)}</section>`,
    `<section id="latency"><h2>Latency per method</h2>${latencyChart(stats)}${latencyTable(stats)}</section>`,
    skipped.length > 0
      ? `<section id="skipped"><h2>Skipped cases (${skipped.length})</h2><table><thead><tr><th>case</th><th>reason</th></tr></thead><tbody>${skipped.map((s) => `<tr><td><code>${h(s.id)}</code></td><td>${h(s.reason)}</td></tr>`).join("")}</tbody></table></section>`
      : "",
  ];
  return [
    `<!doctype html>`,
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta name="referrer" content="no-referrer">`,
    `<title>${h(`Conformance report: ${verdict} (${summary.spec.title} ${summary.spec.version})`)}</title>`,
    `<style>${STYLE}</style></head>`,
    `<body><main>`,
    ...body.filter(Boolean),
    `</main></body></html>`,
    "",
  ].join("\n");
}
