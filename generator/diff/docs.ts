/**
 * `--include-docs`: descriptions (and method summaries) compared on the OpenAPI source
 * form, which keeps them (the normalised form drops them). Paths match compare.ts's, so a
 * description change is reported where a schema change at the same place would be.
 */
import { isObject, type Json } from "@photon-indexer-kit/runtime";
import type { MethodModel, SpecModel } from "../model.js";
import { segment } from "./path.js";
import type { RawChange } from "./types.js";

const SOURCE_REF = /^#\/components\/schemas\/([^/]+)$/;
const COMPOSITIONS = ["anyOf", "oneOf", "allOf"] as const;

function isNull(node: Json | undefined): boolean {
  return isObject(node) && node.type === "null";
}

/** path → description, outermost first: a property's own description wins over its component's. */
function collect(
  node: Json | undefined,
  components: Readonly<Record<string, Json>>,
  path: string,
  out: Map<string, string>,
  refs: ReadonlySet<string>,
  depth: number,
): void {
  if (!isObject(node) || depth > 64) return;
  if (typeof node.description === "string" && !out.has(path)) out.set(path, node.description.trim());
  const ref = typeof node.$ref === "string" ? SOURCE_REF.exec(node.$ref) : null;
  if (ref) {
    const name = decodeURIComponent(ref[1]!);
    if (!refs.has(name)) collect(components[name], components, path, out, new Set([...refs, name]), depth + 1);
    return;
  }
  if (isObject(node.properties))
    for (const [name, sub] of Object.entries(node.properties)) collect(sub, components, path + segment(name), out, refs, depth + 1);
  if (isObject(node.additionalProperties)) collect(node.additionalProperties, components, `${path}{}`, out, refs, depth + 1);
  if (node.items !== undefined) collect(node.items, components, `${path}[]`, out, refs, depth + 1);
  for (const key of COMPOSITIONS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const real = list.filter((s) => !isNull(s));
    // `allOf: [X]` and `anyOf: [X, null]` are wrappers, as in view.ts: X sits at the same path.
    if (real.length === 1 && (key === "allOf" || real.length < list.length)) collect(real[0], components, path, out, refs, depth + 1);
    else list.forEach((s, i) => collect(s, components, `${path}<${key} ${i}>`, out, refs, depth + 1));
  }
}

function docsOf(m: MethodModel, model: SpecModel): Map<string, string> {
  const out = new Map<string, string>();
  if (m.summary !== null) out.set("summary", m.summary.trim());
  if (m.description !== null) out.set("description", m.description.trim());
  if (m.params) collect(m.params.source, model.sourceComponents, "params", out, new Set(), 0);
  collect(m.result.source, model.sourceComponents, "result", out, new Set(), 0);
  return out;
}

export function compareDocs(a: MethodModel, b: MethodModel, [before, after]: readonly [SpecModel, SpecModel]): RawChange[] {
  const da = docsOf(a, before);
  const db = docsOf(b, after);
  const out: RawChange[] = [];
  for (const path of [...new Set([...da.keys(), ...db.keys()])].sort()) {
    const x = da.get(path) ?? null;
    const y = db.get(path) ?? null;
    if (x === y) continue;
    const scope = path.startsWith("params") ? "params" : path.startsWith("result") ? "result" : "method";
    out.push({ method: b.name, scope, path, kind: "description-changed", before: x, after: y, via: null });
  }
  return out;
}
