/**
 * Compares the leaf keywords of two schema nodes (already unwrapped by view.ts): type,
 * format, numeric range, enum, length/count constraints, and, as a catch-all, any other
 * validation keyword, so no change of meaning goes unreported. Structure (properties,
 * items, alternatives) is compare.ts's concern.
 */
import { isObject, type Json, type JsonObject } from "@photon-indexer-kit/runtime";
import type { Effect, RawChange } from "./types.js";
import { typeCovers, typesOf } from "./view.js";

export type LeafChange = Pick<RawChange, "kind" | "before" | "after" | "effect" | "keyword" | "bigint">;

/** Keywords compared structurally by compare.ts or here; the rest fall to the catch-all. */
export const HANDLED = new Set([
  "$ref",
  "type",
  "format",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "minimum",
  "maximum",
  "uint64",
  "int64",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "pattern",
  "uniqueItems",
  "description",
  "title",
  // Follows from being an integer (normalize/integer.ts adds it to every one): the type says it.
  "integerLiteral",
]);

const LOWER = ["minLength", "minItems", "minProperties"];
const UPPER = ["maxLength", "maxItems", "maxProperties"];

const INT_FORMATS: Record<string, [bigint, bigint]> = {
  uint8: [0n, 0xffn],
  uint16: [0n, 0xffffn],
  uint32: [0n, 0xffffffffn],
  uint64: [0n, 0xffffffffffffffffn],
  int8: [-0x80n, 0x7fn],
  int16: [-0x8000n, 0x7fffn],
  int32: [-0x80000000n, 0x7fffffffn],
  int64: [-0x8000000000000000n, 0x7fffffffffffffffn],
};

type Bound = number | bigint | null;
interface Range {
  readonly lo: Bound;
  readonly hi: Bound;
}

const stable = (v: Json | undefined): string => JSON.stringify(v ?? null);

function numericRange(s: JsonObject): Range {
  let lo: Bound = typeof s.minimum === "number" ? s.minimum : null;
  let hi: Bound = typeof s.maximum === "number" ? s.maximum : null;
  for (const key of ["uint64", "int64"]) {
    if (!(key in s)) continue;
    const k = s[key];
    const [dlo, dhi] = INT_FORMATS[key]!;
    lo = isObject(k) && typeof k.minimum === "number" ? k.minimum : dlo;
    hi = isObject(k) && typeof k.maximum === "number" ? k.maximum : dhi;
  }
  return { lo, hi };
}

function boundText(b: Bound): string {
  return b === null ? "∞" : String(b);
}

/** A numeric schema's format as a reader knows it: `uint16`, `uint64`, or its bounds. */
function numericLabel(s: JsonObject, r: Range): string {
  if ("uint64" in s || "int64" in s) {
    const key = "uint64" in s ? "uint64" : "int64";
    const [dlo, dhi] = INT_FORMATS[key]!;
    return r.lo === dlo && r.hi === dhi ? key : `${key} ${boundText(r.lo)}..${boundText(r.hi)}`;
  }
  const named = typeof s.format === "string" ? `${s.format} ` : "";
  if (r.lo === null && r.hi === null) return named === "" ? "none" : named.trim();
  for (const [name, [flo, fhi]] of Object.entries(INT_FORMATS)) {
    // biome-ignore lint/suspicious/noDoubleEquals: bounds are numbers or bigints; == compares them by value
    if (r.lo !== null && r.hi !== null && r.lo == flo && r.hi == fhi) return `${named}${name}`;
  }
  return `${named}${r.lo === null ? "-∞" : boundText(r.lo)}..${boundText(r.hi)}`;
}

function rangeEffect(a: Range, b: Range): Effect {
  // lo: null is -∞; hi: null is +∞.
  const loWider = b.lo === null || (a.lo !== null && b.lo <= a.lo);
  const loNarrower = a.lo === null || (b.lo !== null && b.lo >= a.lo);
  const hiWider = b.hi === null || (a.hi !== null && b.hi >= a.hi);
  const hiNarrower = a.hi === null || (b.hi !== null && b.hi <= a.hi);
  if (loWider && hiWider) return "wider";
  if (loNarrower && hiNarrower) return "narrower";
  return "incomparable";
}

function typeEffect(a: string[] | null, b: string[] | null): Effect {
  if (a === null) return "narrower";
  if (b === null) return "wider";
  const wider = a.every((t) => b.some((u) => typeCovers(u, t)));
  const narrower = b.every((t) => a.some((u) => typeCovers(u, t)));
  return wider ? "wider" : narrower ? "narrower" : "incomparable";
}

function presenceEffect(before: Json | undefined, after: Json | undefined): Effect {
  if (before === undefined) return "narrower";
  if (after === undefined) return "wider";
  return "incomparable";
}

/** Type changes; returns `disjoint` when the two sides share no type (structure is then not compared). */
export function compareType(a: JsonObject | boolean, b: JsonObject | boolean): { changes: LeafChange[]; disjoint: boolean } {
  const ta = typesOf(a);
  const tb = typesOf(b);
  if (stable(ta) === stable(tb)) return { changes: [], disjoint: false };
  const disjoint = ta !== null && tb !== null && !ta.some((t) => tb.some((u) => typeCovers(u, t) || typeCovers(t, u)));
  const label = (t: string[] | null): Json => (t === null ? "any" : t.join(" | "));
  return { changes: [{ kind: "type-changed", before: label(ta), after: label(tb), effect: typeEffect(ta, tb) }], disjoint };
}

function compareFormat(a: JsonObject, b: JsonObject, numeric: boolean): LeafChange[] {
  if (numeric) {
    const ra = numericRange(a);
    const rb = numericRange(b);
    const la = numericLabel(a, ra);
    const lb = numericLabel(b, rb);
    if (la === lb) return [];
    const ba = "uint64" in a || "int64" in a;
    const bb = "uint64" in b || "int64" in b;
    const change: LeafChange = { kind: "format-changed", before: la, after: lb, effect: rangeEffect(ra, rb) };
    return [ba === bb ? change : { ...change, bigint: bb ? "added" : "removed" }];
  }
  const fa = typeof a.format === "string" ? a.format : undefined;
  const fb = typeof b.format === "string" ? b.format : undefined;
  if (fa === fb) return [];
  return [{ kind: "format-changed", before: fa ?? null, after: fb ?? null, effect: presenceEffect(fa, fb) }];
}

function compareEnum(a: JsonObject, b: JsonObject): LeafChange[] {
  const ea = Array.isArray(a.enum) ? a.enum : undefined;
  const eb = Array.isArray(b.enum) ? b.enum : undefined;
  if (ea === undefined && eb === undefined) return [];
  if (ea === undefined || eb === undefined) {
    return [{ kind: "constraint-changed", keyword: "enum", before: ea ?? null, after: eb ?? null, effect: presenceEffect(ea, eb) }];
  }
  const sa = new Set(ea.map(stable));
  const sb = new Set(eb.map(stable));
  const added = eb.filter((v) => !sa.has(stable(v)));
  const removed = ea.filter((v) => !sb.has(stable(v)));
  const out: LeafChange[] = [];
  if (added.length > 0) out.push({ kind: "enum-values-added", before: null, after: added });
  if (removed.length > 0) out.push({ kind: "enum-values-removed", before: removed, after: null });
  return out;
}

function compareConstraints(a: JsonObject, b: JsonObject): LeafChange[] {
  const out: LeafChange[] = [];
  for (const keyword of [...LOWER, ...UPPER, "pattern", "uniqueItems"]) {
    const va = a[keyword];
    const vb = b[keyword];
    if (stable(va) === stable(vb)) continue;
    let effect: Effect;
    if (typeof va === "number" && typeof vb === "number") {
      effect = LOWER.includes(keyword) === vb > va ? "narrower" : "wider";
    } else if (keyword === "uniqueItems") {
      effect = vb === true ? "narrower" : "wider";
    } else {
      effect = presenceEffect(va, vb);
    }
    out.push({ kind: "constraint-changed", keyword, before: va ?? null, after: vb ?? null, effect });
  }
  return out;
}

function compareOthers(a: JsonObject, b: JsonObject): LeafChange[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !HANDLED.has(k)).sort();
  return keys
    .filter((k) => stable(a[k]) !== stable(b[k]))
    .map((keyword) => ({
      kind: "schema-changed" as const,
      keyword,
      before: a[keyword] ?? null,
      after: b[keyword] ?? null,
      effect: presenceEffect(a[keyword], b[keyword]),
    }));
}

/** Every leaf-keyword change between two nodes of compatible type. */
export function compareLeaves(a: JsonObject | boolean, b: JsonObject | boolean): LeafChange[] {
  const oa: JsonObject = typeof a === "boolean" ? {} : a;
  const ob: JsonObject = typeof b === "boolean" ? {} : b;
  const numeric = [typesOf(a), typesOf(b)].some((t) => t !== null && (t.includes("integer") || t.includes("number")));
  return [...compareFormat(oa, ob, numeric), ...compareEnum(oa, ob), ...compareConstraints(oa, ob), ...compareOthers(oa, ob)];
}
