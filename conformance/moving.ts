/**
 * The result fields that move with the chain (`moving` in the method table, from the spec's
 * `x-moves-with`, DECISIONS row 76): a proof's siblings, root and rootSeq as leaves are
 * appended, a queue's contents as slots pass. `record` writes a type matcher there instead of
 * the value; `diff` calls a difference there inconclusive when the two answers state different
 * root sequences (or slots). Paths in the table are dotted from the result with `[]` for every
 * element of an array; here they are expanded over a real answer into concrete dotted paths
 * (`result.value.0.root`), the notation `differences` reports.
 */
import { isObject, type Json, type MovingField } from "@photon-indexer-kit/runtime";
import { match } from "./matchers.js";
import { methodInfo, specMethods, type MethodTable } from "./spec-facts.js";

/** One moving field of one answer: where it stands, and where the root sequence of its object does (same array indices), if anywhere. */
export interface MovingAt {
  readonly path: string;
  readonly field: MovingField;
  readonly seq: string | null;
}

/** The moving fields of a method (none for an unknown method or a table without them). */
export function movingFieldsOf(method: string, table: MethodTable = specMethods): readonly MovingField[] {
  return methodInfo(method, table)?.moving ?? [];
}

/** The concrete paths (dotted, under `prefix`) of a table path over `value`, with the array indices taken at each `[]`. */
function expand(value: unknown, segments: readonly string[], prefix: string, indices: number[], out: { path: string; indices: number[] }[]): void {
  if (segments.length === 0) {
    out.push({ path: prefix, indices });
    return;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === "[]") {
    if (Array.isArray(value)) value.forEach((v, i) => expand(v, rest, `${prefix}.${i}`, [...indices, i], out));
    return;
  }
  if (isObject(value) && Object.hasOwn(value, head)) expand(value[head], rest, `${prefix}.${head}`, indices, out);
}

const segmentsOf = (path: string) => path.split(/(\[\])|\./).filter((s): s is string => s !== undefined && s !== "");

/** A table path with its `[]`s replaced by the given indices, under `prefix`. */
function concrete(path: string, indices: readonly number[], prefix: string): string {
  let k = 0;
  return segmentsOf(path).reduce((acc, s) => `${acc}.${s === "[]" ? String(indices[k++]) : s}`, prefix);
}

/** The moving fields present in one reply's `result` (paths start with `prefix`, e.g. `result` or `0.result`). */
export function movingIn(method: string, result: unknown, prefix: string, table: MethodTable = specMethods): MovingAt[] {
  const out: MovingAt[] = [];
  for (const field of movingFieldsOf(method, table)) {
    const found: { path: string; indices: number[] }[] = [];
    expand(result, segmentsOf(field.path), prefix, [], found);
    for (const f of found) out.push({ path: f.path, field, seq: field.seq === null ? null : concrete(field.seq, f.indices, prefix) });
  }
  return out;
}

/** The replies of a body with their path prefixes: the reply itself (`result`), or each element of a batch (`0.result`, …). */
export function resultsOf(body: unknown): { prefix: string; result: unknown }[] {
  const replies: [string, unknown][] = Array.isArray(body) ? body.map((b, i) => [`${i}.`, b]) : [["", body]];
  return replies
    .filter(([, r]) => isObject(r) && Object.hasOwn(r, "result"))
    .map(([p, r]) => ({ prefix: `${p}result`, result: (r as Record<string, unknown>).result }));
}

/** Every moving field of an answer (a reply or a batch of replies to the case's method). */
export function movingOfBody(method: string, body: unknown, table: MethodTable = specMethods): MovingAt[] {
  return resultsOf(body).flatMap(({ prefix, result }) => movingIn(method, result, prefix, table));
}

/** Whether `path` is a moving field's path or lies inside one. */
export function underMoving(path: string, at: MovingAt): boolean {
  return path === at.path || path.startsWith(`${at.path}.`);
}

/** The matcher recorded in place of a moving field's value: `{type: …}` from its schema, or `{any: true}`. */
export function matcherFor(field: MovingField): Json {
  return field.type === null ? { any: true } : { type: field.type };
}

function replaceAt(node: unknown, segments: readonly string[], value: Json): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(node)) {
    const i = Number(head);
    return node.map((v, k) => (k === i ? replaceAt(v, rest, value) : v));
  }
  if (isObject(node)) return { ...node, [head]: replaceAt(node[head], rest, value) };
  return node;
}

/**
 * The answer as `record` writes it: at each moving field whose value satisfies the field's type
 * matcher, the matcher instead of the value (so the recording does not go stale as the tree
 * grows); a value that does not satisfy it is kept, so the change shows.
 */
export function maskMoving(method: string, body: unknown, table: MethodTable = specMethods): unknown {
  let out = body;
  for (const at of movingOfBody(method, body, table)) {
    const matcher = matcherFor(at.field);
    const value = at.path.split(".").reduce<unknown>((n, s) => (Array.isArray(n) ? n[Number(s)] : isObject(n) ? n[s] : undefined), body);
    if (match(value, matcher) === null) out = replaceAt(out, at.path.split("."), matcher);
  }
  return out;
}
