/**
 * photon-gen diff: load two specs (file, folder or URL), build their models, compare them
 * by meaning, classify every change, and order the report deterministically.
 */
import { loadSpec } from "../load.js";
import { buildModel, type SpecModel } from "../model.js";
import { classify } from "./classify.js";
import { compareModels } from "./compare.js";
import type { Change, ChangeKind, DiffReport, FailOn, Scope, SpecIdentity } from "./types.js";

export type { Change, ChangeClass, ChangeKind, DiffFormat, DiffReport, FailOn } from "./types.js";
export { render } from "./render.js";

const SCOPES: readonly Scope[] = ["method", "params", "result"];
const KINDS: readonly ChangeKind[] = [
  "method-added",
  "method-removed",
  "params-added",
  "params-removed",
  "params-required",
  "params-optional",
  "pagination-added",
  "pagination-removed",
  "pagination-changed",
  "field-added",
  "field-removed",
  "field-required",
  "field-optional",
  "nullable-added",
  "nullable-removed",
  "type-changed",
  "format-changed",
  "enum-values-added",
  "enum-values-removed",
  "additional-properties-changed",
  "constraint-changed",
  "alternatives-changed",
  "schema-changed",
  "description-changed",
];

function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function order(a: Change, b: Change): number {
  return (
    cmp(a.method, b.method) ||
    cmp(SCOPES.indexOf(a.scope), SCOPES.indexOf(b.scope)) ||
    cmp(a.path, b.path) ||
    cmp(KINDS.indexOf(a.kind), KINDS.indexOf(b.kind)) ||
    cmp(JSON.stringify([a.keyword ?? null, a.before, a.after]), JSON.stringify([b.keyword ?? null, b.before, b.after]))
  );
}

function identity(m: SpecModel): SpecIdentity {
  return { title: m.title, version: m.version, source: m.source, sha256: m.sha256, methods: m.methods.length };
}

export interface DiffOptions {
  readonly includeDocs?: boolean;
}

export function diffModels(before: SpecModel, after: SpecModel, options: DiffOptions = {}): DiffReport {
  const includeDocs = options.includeDocs === true;
  const changes = compareModels(before, after, includeDocs).map(classify).sort(order);
  const of = (kind: ChangeKind) => changes.filter((c) => c.kind === kind).map((c) => c.method);
  const whole = new Set(["method-added", "method-removed"]);
  return {
    old: identity(before),
    new: identity(after),
    includeDocs,
    summary: {
      methodsAdded: of("method-added"),
      methodsRemoved: of("method-removed"),
      methodsChanged: [...new Set(changes.filter((c) => !whole.has(c.kind)).map((c) => c.method))],
      changes: changes.length,
      breakingClients: changes.filter((c) => c.breaks.clients).length,
      breakingServers: changes.filter((c) => c.breaks.servers).length,
      compatible: changes.filter((c) => c.class === "compatible").length,
    },
    changes,
  };
}

/** Loads both specs (a GenError names the unreadable one, with file and pointer) and diffs them. */
export async function diffSpecs(oldSpec: string, newSpec: string, options: DiffOptions = {}, cwd = process.cwd()): Promise<DiffReport> {
  // One after the other, so that when both are bad the error always names the old one.
  const before = buildModel(await loadSpec(oldSpec, cwd));
  const after = buildModel(await loadSpec(newSpec, cwd));
  return diffModels(before, after, options);
}

/** Whether the report should fail a CI gate: `breaking` (either side), `clients`, `servers` or `any` change. */
export function failsOn(report: DiffReport, failOn: FailOn | undefined): boolean {
  if (failOn === undefined) return false;
  return report.changes.some((c) =>
    failOn === "any" ? true : failOn === "clients" ? c.breaks.clients : failOn === "servers" ? c.breaks.servers : c.breaks.clients || c.breaks.servers,
  );
}
