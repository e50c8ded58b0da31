/** The report as plain text (terminals, CI logs), markdown (PR comments) or JSON (tools). */
import type { Change, ChangeClass, DiffFormat, DiffReport, SpecIdentity } from "./types.js";

const LABEL: Record<ChangeClass, string> = {
  "breaking-clients": "breaks clients",
  "breaking-servers": "breaks servers",
  "breaking-both": "breaks both",
  compatible: "compatible",
};

function byMethod(changes: readonly Change[]): Map<string, Change[]> {
  const out = new Map<string, Change[]>();
  for (const c of changes) out.set(c.method, [...(out.get(c.method) ?? []), c]);
  return out;
}

function what(c: Change): string {
  return c.via ? `${c.message} (in ${c.via})` : c.message;
}

function where(c: Change): string {
  return c.path === "" ? "(method)" : c.path;
}

function spec(s: SpecIdentity): string {
  return `${s.title} ${s.version} (${s.source}, sha256 ${s.sha256.slice(0, 12)}, ${s.methods} methods)`;
}

function totals(r: DiffReport): string {
  const s = r.summary;
  if (s.changes === 0) return "no changes in meaning";
  return `${s.changes} changes: ${s.breakingClients} break clients, ${s.breakingServers} break servers, ${s.compatible} compatible; methods ${s.methodsAdded.length} added, ${s.methodsRemoved.length} removed, ${s.methodsChanged.length} changed`;
}

function text(r: DiffReport): string {
  const lines = [`old: ${spec(r.old)}`, `new: ${spec(r.new)}`, totals(r)];
  for (const [method, changes] of byMethod(r.changes)) {
    lines.push("", method);
    for (const c of changes) {
      lines.push(`  ${LABEL[c.class].padEnd(14)}  ${where(c)}: ${what(c)}`);
      lines.push(`  ${"".padEnd(14)}  why: ${c.reason}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function markdown(r: DiffReport): string {
  const lines = [
    `## Spec diff: ${cell(r.old.title)} ${r.old.version} → ${cell(r.new.title)} ${r.new.version}`,
    "",
    "| | old | new |",
    "|---|---|---|",
    `| source | \`${cell(r.old.source)}\` | \`${cell(r.new.source)}\` |`,
    `| sha256 | \`${r.old.sha256.slice(0, 12)}\` | \`${r.new.sha256.slice(0, 12)}\` |`,
    `| methods | ${r.old.methods} | ${r.new.methods} |`,
    "",
    `**${totals(r)}**`,
  ];
  if (r.summary.methodsAdded.length > 0) lines.push("", `Methods added: ${r.summary.methodsAdded.map((m) => `\`${m}\``).join(", ")}`);
  if (r.summary.methodsRemoved.length > 0) lines.push("", `Methods removed: ${r.summary.methodsRemoved.map((m) => `\`${m}\``).join(", ")}`);
  for (const [method, changes] of byMethod(r.changes)) {
    lines.push("", `### \`${method}\``, "", "| where | change | class | why |", "|---|---|---|---|");
    for (const c of changes) lines.push(`| \`${cell(where(c))}\` | ${cell(what(c))} | ${LABEL[c.class]} | ${cell(c.reason)} |`);
  }
  return `${lines.join("\n")}\n`;
}

function json(r: DiffReport): string {
  const changes = r.changes.map((c) => ({
    method: c.method,
    scope: c.scope,
    path: c.path,
    kind: c.kind,
    class: c.class,
    breaks: c.breaks,
    message: c.message,
    reason: c.reason,
    before: c.before,
    after: c.after,
    via: c.via,
    ...(c.keyword !== undefined ? { keyword: c.keyword } : {}),
    ...(c.effect !== undefined ? { effect: c.effect } : {}),
    ...(c.required !== undefined ? { required: c.required } : {}),
    ...(c.closed !== undefined ? { closed: c.closed } : {}),
    ...(c.bigint !== undefined ? { bigint: c.bigint } : {}),
  }));
  return `${JSON.stringify({ old: r.old, new: r.new, includeDocs: r.includeDocs, summary: r.summary, changes }, null, 2)}\n`;
}

export function render(report: DiffReport, format: DiffFormat): string {
  return format === "json" ? json(report) : format === "markdown" ? markdown(report) : text(report);
}
