/**
 * The result fields that move with the chain (`moving` in the method table, from the spec's
 * `x-moves-with`, DECISIONS rows 76 and 84): with the tree's root (a proof's siblings, root and
 * rootSeq as leaves are appended), with the slot though the thing described does not change (a
 * queue's contents, `proveByIndex`), and with the index's state (list members, balances, the
 * account at an address). `record` writes a type matcher at `root` and `slot` fields; `diff`
 * judges a difference by the field it lies in. Paths in the table are dotted from the result
 * with `[]` for every element of an array; a method's fields are read into a trie of those
 * segments once, and walked beside an answer (linear in its size).
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

/** A node of a method's moving-field trie: children by property name, `[]` for every array element. */
export interface MovingNode {
  readonly children: ReadonlyMap<string, MovingNode>;
  /** The field ending here, if one does. */
  readonly field: MovingField | null;
  /** For a `root` field with a `seq`: the sequence's path from the object holding the field. */
  readonly seqFromParent: readonly string[] | null;
}

interface Building {
  children: Map<string, Building>;
  field: MovingField | null;
  seqFromParent: string[] | null;
}

/** The moving fields of a method (none for an unknown method or a table without them). */
export function movingFieldsOf(method: string, table: MethodTable = specMethods): readonly MovingField[] {
  return methodInfo(method, table)?.moving ?? [];
}

const segmentsOf = (path: string) => path.split(/(\[\])|\./).filter((s): s is string => s !== undefined && s !== "");

export const NO_MOVING: MovingNode = { children: new Map(), field: null, seqFromParent: null };

const tries = new WeakMap<MethodTable, Map<string, MovingNode>>();

/** A method's moving fields as a trie (built once per table and method; the empty trie for none). */
export function movingTrie(method: string | null, table: MethodTable = specMethods): MovingNode {
  if (method === null) return NO_MOVING;
  let byMethod = tries.get(table);
  if (byMethod === undefined) tries.set(table, (byMethod = new Map()));
  const known = byMethod.get(method);
  if (known !== undefined) return known;
  const root: Building = { children: new Map(), field: null, seqFromParent: null };
  for (const field of movingFieldsOf(method, table)) {
    const segments = segmentsOf(field.path);
    let node = root;
    for (const s of segments) {
      let next = node.children.get(s);
      if (next === undefined) node.children.set(s, (next = { children: new Map(), field: null, seqFromParent: null }));
      node = next;
    }
    if (node.field !== null) continue; // the first mark of a path wins, as the generator keeps it
    node.field = field;
    if (field.seq !== null) {
      const parent = segments.slice(0, -1);
      const seq = segmentsOf(field.seq);
      // `x-moves-with.seq` names a property of the field's own object (generator/moving.ts).
      if (parent.every((s, i) => seq[i] === s)) node.seqFromParent = seq.slice(parent.length);
    }
  }
  byMethod.set(method, root);
  return root;
}

/** The concrete paths (dotted, under `prefix`) of a trie over `value`, each with its field and its sequence's concrete path. */
function expandTrie(value: unknown, node: MovingNode, prefix: string, parent: string, out: MovingAt[]): void {
  if (node.field !== null) {
    const seq = node.field.seq === null || node.seqFromParent === null ? null : [parent, ...node.seqFromParent].join(".");
    out.push({ path: prefix, field: node.field, seq });
  }
  for (const [segment, child] of node.children) {
    if (segment === "[]") {
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) expandTrie(value[i], child, `${prefix}.${i}`, prefix, out);
    } else if (isObject(value) && Object.hasOwn(value, segment)) expandTrie(value[segment], child, `${prefix}.${segment}`, prefix, out);
  }
}

/** The moving fields present in one reply's `result` (paths start with `prefix`, e.g. `result` or `0.result`), outer fields first. */
export function movingIn(method: string, result: unknown, prefix: string, table: MethodTable = specMethods): MovingAt[] {
  const out: MovingAt[] = [];
  expandTrie(result, movingTrie(method, table), prefix, prefix, out);
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

/** `value` with its `root` and `slot` fields (by the trie) replaced by their matchers where the value satisfies them; copies only what it changes. */
export function maskResult(value: unknown, node: MovingNode): unknown {
  if (node.field !== null && node.field.with !== "state") {
    const matcher = matcherFor(node.field);
    if (match(value, matcher) === null) return matcher;
  }
  if (node.children.size === 0) return value;
  if (Array.isArray(value)) {
    const each = node.children.get("[]");
    if (each === undefined) return value;
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const masked = maskResult(value[i], each);
      if (masked !== value[i]) (out ??= value.slice())[i] = masked;
    }
    return out ?? value;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const [segment, child] of node.children) {
    if (segment === "[]" || !Object.hasOwn(value, segment)) continue;
    const masked = maskResult(value[segment], child);
    if (masked !== value[segment]) (out ??= { ...value })[segment] = masked;
  }
  return out ?? value;
}

/**
 * The answer as `record` writes it: each `root` or `slot` field that satisfies its type matcher becomes
 * the matcher, so recordings do not go stale; `state` fields are kept as a snapshot.
 */
export function maskMoving(method: string, body: unknown, table: MethodTable = specMethods): unknown {
  const node = movingTrie(method, table);
  const one = (reply: unknown) => (isObject(reply) && Object.hasOwn(reply, "result") ? replaceResult(reply, maskResult(reply.result, node)) : reply);
  if (!Array.isArray(body)) return one(body);
  let out: unknown[] | null = null;
  body.forEach((reply, i) => {
    const masked = one(reply);
    if (masked !== reply) (out ??= body.slice())[i] = masked;
  });
  return out ?? body;
}

const replaceResult = (reply: Record<string, unknown>, result: unknown) => (result === reply.result ? reply : { ...reply, result });
