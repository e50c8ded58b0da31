/**
 * Walks two specs' models side by side and reports what changed in meaning, as facts
 * (RawChange), without judging them. Schemas are the normalised ones; `$ref`s are followed,
 * so a change in a shared component is reported at every method and path it reaches.
 * Each pair of components is compared once and the result reused (memo), which keeps a
 * spec with heavily shared components linear in size; recursive components stop at their
 * second visit on a path.
 */
import { isObject, type Json, type JsonObject } from "@photon-indexer-kit/runtime";
import type { MethodModel, SpecModel } from "../model.js";
import { compareDocs } from "./docs.js";
import { compareLeaves, compareType } from "./keywords.js";
import { segment } from "./path.js";
import type { RawChange, Scope } from "./types.js";
import type { Components } from "./view.js";
import { isObjectSchema, typesOf, viewOf } from "./view.js";

/** A change found below some node: `rel` is its path relative to that node. */
type Found = Omit<RawChange, "method" | "scope" | "path"> & { readonly rel: string };

interface Walk {
  readonly oldC: Components;
  readonly newC: Components;
  readonly memo: Map<string, readonly Found[]>;
  readonly active: Set<string>;
  /** Pairs whose recursion was cut short: results computed while one was cut are not memoised. */
  readonly cuts: string[];
}

const COMPOSITIONS = ["anyOf", "oneOf", "allOf"] as const;

const stable = (v: Json | undefined): string => JSON.stringify(v ?? null);

function prefixed(rel: string, found: readonly Found[]): Found[] {
  return found.map((f) => ({ ...f, rel: rel + f.rel }));
}

/** A short label of a schema for messages: `Hash`, `string | null`, `Account[]`. */
export function label(node: Json | undefined, components: Components, depth = 0): string {
  const v = viewOf(node, components);
  let base: string;
  if (v.refs.length > 0) base = v.refs[v.refs.length - 1]!;
  else if (isObject(v.schema) && v.schema.type === "array" && depth < 4) base = `${label(v.schema.items, components, depth + 1)}[]`;
  else if (isObject(v.schema) && ("uint64" in v.schema || "int64" in v.schema)) base = "uint64" in v.schema ? "uint64" : "int64";
  else if (isObject(v.schema) && Array.isArray(v.schema.enum)) base = v.schema.enum.map((e) => JSON.stringify(e)).join(" | ");
  else base = typesOf(v.schema)?.join(" | ") ?? (isObjectSchema(v.schema) ? "object" : "any");
  return v.nullable ? `${base} | null` : base;
}

function walk(w: Walk, a: Json | undefined, b: Json | undefined, via: string | null): Found[] {
  const va = viewOf(a, w.oldC);
  const vb = viewOf(b, w.newC);
  const out: Found[] = [];
  if (va.nullable !== vb.nullable)
    out.push({ rel: "", kind: vb.nullable ? "nullable-added" : "nullable-removed", before: va.nullable, after: vb.nullable, via });
  const ra = va.refs[va.refs.length - 1];
  const rb = vb.refs[vb.refs.length - 1];
  if (ra === undefined || rb === undefined) {
    out.push(...compareCore(w, va.schema, vb.schema, rb ?? ra ?? via));
    return out;
  }
  const key = `${ra}\u0000${rb}`;
  let core = w.memo.get(key);
  if (core === undefined) {
    if (w.active.has(key)) {
      w.cuts.push(key); // a recursive component: its second visit adds nothing new
      return out;
    }
    const cutsBefore = w.cuts.length;
    w.active.add(key);
    core = compareCore(w, va.schema, vb.schema, rb);
    w.active.delete(key);
    // Complete unless the recursion was cut at an enclosing pair, which another path would enter afresh.
    if (w.cuts.slice(cutsBefore).every((k) => k === key)) w.memo.set(key, core);
  }
  out.push(...core);
  return out;
}

function additionalState(value: Json | undefined): "open" | "closed" | "schema" {
  return value === false ? "closed" : value === undefined || value === true ? "open" : "schema";
}

const AP_EFFECT: Record<string, RawChange["effect"]> = {
  "open>closed": "narrower",
  "open>schema": "narrower",
  "schema>closed": "narrower",
  "closed>open": "wider",
  "schema>open": "wider",
  "closed>schema": "wider",
};

function compareObject(w: Walk, a: JsonObject, b: JsonObject, via: string | null): Found[] {
  const out: Found[] = [];
  const pa = isObject(a.properties) ? a.properties : {};
  const pb = isObject(b.properties) ? b.properties : {};
  const reqA = new Set(Array.isArray(a.required) ? a.required : []);
  const reqB = new Set(Array.isArray(b.required) ? b.required : []);
  const closedA = a.additionalProperties === false;
  const closedB = b.additionalProperties === false;
  const names = [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort();
  for (const name of names) {
    const rel = segment(name);
    if (name in pa && name in pb) {
      if (reqA.has(name) !== reqB.has(name))
        out.push({ rel, kind: reqB.has(name) ? "field-required" : "field-optional", before: reqA.has(name), after: reqB.has(name), via });
      out.push(...prefixed(rel, walk(w, pa[name], pb[name], via)));
    } else if (name in pb) {
      out.push({ rel, kind: "field-added", before: null, after: label(pb[name], w.newC), required: reqB.has(name), closed: closedA, via });
    } else {
      out.push({ rel, kind: "field-removed", before: label(pa[name], w.oldC), after: null, required: reqA.has(name), closed: closedB, via });
    }
  }
  const sa = additionalState(a.additionalProperties);
  const sb = additionalState(b.additionalProperties);
  if (sa !== sb) out.push({ rel: "", kind: "additional-properties-changed", before: sa, after: sb, effect: AP_EFFECT[`${sa}>${sb}`]!, via });
  else if (sa === "schema") out.push(...prefixed("{}", walk(w, a.additionalProperties, b.additionalProperties, via)));
  return out;
}

function compareAlternatives(w: Walk, a: JsonObject, b: JsonObject, via: string | null): Found[] {
  const out: Found[] = [];
  for (const key of COMPOSITIONS) {
    const la = Array.isArray(a[key]) ? (a[key] as Json[]) : undefined;
    const lb = Array.isArray(b[key]) ? (b[key] as Json[]) : undefined;
    if (la === undefined && lb === undefined) continue;
    if (la !== undefined && lb !== undefined && la.length === lb.length) {
      la.forEach((s, i) => out.push(...prefixed(`<${key} ${i}>`, walk(w, s, lb[i], via))));
      continue;
    }
    const ka = new Set((la ?? []).map(stable));
    const kb = new Set((lb ?? []).map(stable));
    const grew = [...ka].every((k) => kb.has(k));
    const shrank = [...kb].every((k) => ka.has(k));
    // More anyOf/oneOf branches admit more values; more allOf parts admit fewer.
    const more = key === "allOf" ? "narrower" : "wider";
    const fewer = key === "allOf" ? "wider" : "narrower";
    out.push({
      rel: "",
      kind: "alternatives-changed",
      keyword: key,
      before: la?.length ?? 0,
      after: lb?.length ?? 0,
      effect: grew ? more : shrank ? fewer : "incomparable",
      via,
    });
  }
  return out;
}

function compareCore(w: Walk, a: JsonObject | boolean, b: JsonObject | boolean, via: string | null): Found[] {
  const type = compareType(a, b);
  const out: Found[] = type.changes.map((c) => ({ rel: "", ...c, via }));
  if (type.disjoint) return out; // an object that became a string: its old fields are not news
  out.push(...compareLeaves(a, b).map((c) => ({ rel: "", ...c, via })));
  const oa: JsonObject = typeof a === "boolean" ? {} : a;
  const ob: JsonObject = typeof b === "boolean" ? {} : b;
  if (isObjectSchema(a) || isObjectSchema(b)) out.push(...compareObject(w, oa, ob, via));
  if ("items" in oa || "items" in ob) out.push(...prefixed("[]", walk(w, oa.items ?? true, ob.items ?? true, via)));
  out.push(...compareAlternatives(w, oa, ob, via));
  return out;
}

function paging(m: MethodModel): JsonObject | null {
  const p = m.pagination;
  if (!p) return null;
  const order = p.order ? p.order.map((k) => `${k.field} ${k.direction} (${k.compare})`).join(", ") : "unstated";
  return { items: p.items, cursor: p.cursor, limit: p.limit ?? "none", order };
}

function compareMethod(w: Walk, a: MethodModel, b: MethodModel, includeDocs: boolean, models: [SpecModel, SpecModel]): RawChange[] {
  const out: RawChange[] = [];
  const at = (scope: Scope, found: readonly Found[]) => {
    for (const { rel, ...f } of found) out.push({ method: b.name, scope, path: scope + rel, ...f });
  };
  if (a.params === null && b.params !== null) {
    out.push({
      method: b.name,
      scope: "params",
      path: "params",
      kind: "params-added",
      before: null,
      after: label(b.params.normalized, w.newC),
      required: b.paramsRequired,
      via: null,
    });
  } else if (a.params !== null && b.params === null) {
    out.push({ method: b.name, scope: "params", path: "params", kind: "params-removed", before: label(a.params.normalized, w.oldC), after: null, via: null });
  } else if (a.params !== null && b.params !== null) {
    if (a.paramsRequired !== b.paramsRequired) {
      out.push({
        method: b.name,
        scope: "params",
        path: "params",
        kind: b.paramsRequired ? "params-required" : "params-optional",
        before: a.paramsRequired,
        after: b.paramsRequired,
        via: null,
      });
    }
    at("params", walk(w, a.params.normalized, b.params.normalized, null));
  }
  at("result", walk(w, a.result.normalized, b.result.normalized, null));
  const pa = paging(a);
  const pb = paging(b);
  if (stable(pa) !== stable(pb)) {
    const kind = pa === null ? "pagination-added" : pb === null ? "pagination-removed" : "pagination-changed";
    out.push({ method: b.name, scope: "method", path: "pagination", kind, before: pa, after: pb, via: null });
  }
  if (includeDocs) out.push(...compareDocs(a, b, models));
  return out;
}

/** Every change of meaning between two models (and of descriptions, when asked), unordered. */
export function compareModels(before: SpecModel, after: SpecModel, includeDocs = false): RawChange[] {
  const w: Walk = { oldC: before.components, newC: after.components, memo: new Map(), active: new Set(), cuts: [] };
  const oldByName = new Map(before.methods.map((m) => [m.name, m]));
  const newByName = new Map(after.methods.map((m) => [m.name, m]));
  const names = [...new Set([...oldByName.keys(), ...newByName.keys()])].sort();
  const out: RawChange[] = [];
  for (const name of names) {
    const a = oldByName.get(name);
    const b = newByName.get(name);
    if (a && b) out.push(...compareMethod(w, a, b, includeDocs, [before, after]));
    else if (b) out.push({ method: name, scope: "method", path: "", kind: "method-added", before: null, after: b.path, via: null });
    else if (a) out.push({ method: name, scope: "method", path: "", kind: "method-removed", before: a.path, after: null, via: null });
  }
  return out;
}
