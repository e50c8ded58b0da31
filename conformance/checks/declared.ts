/**
 * What the spec declares of an answer: the value with every field the spec does not know peeled
 * off, as the method's generated validator finds them (its `additionalProperties` issues). The
 * schema check warns about each peeled field (fails under --strict); checks that compare whole
 * values compare this view, so a field a newer deployment adds never fails them.
 */
import { isObject, validate, type ValidationIssue } from "@photon-indexer-kit/runtime";

/** Fields peeled at most (each costs one validation of the whole value). */
export const MAX_UNKNOWN = 50;

export interface Declared {
  /** The value without its unknown fields: `value` itself when it has none. */
  readonly value: unknown;
  /** Each unknown field's place, array indexes as `*` (`/value/items/*​/extra`). */
  readonly unknown: readonly string[];
  /** The validator's other issues (the value breaks the spec beyond unknown fields). */
  readonly issues: readonly ValidationIssue[];
}

/** Deletes the last segment's key from every object the pattern reaches (`*` matches any array index); iterative. */
function removeEverywhere(root: unknown, segments: readonly string[]): number {
  let removed = 0;
  const stack: { node: unknown; at: number }[] = [{ node: root, at: 0 }];
  while (stack.length > 0) {
    const { node, at } = stack.pop()!;
    const head = segments[at];
    if (head === undefined) continue;
    if (at === segments.length - 1) {
      if (isObject(node) && Object.hasOwn(node, head)) {
        delete node[head];
        removed++;
      }
    } else if (head === "*") {
      if (Array.isArray(node)) for (const item of node) stack.push({ node: item, at: at + 1 });
    } else {
      const next = Array.isArray(node) ? node[Number(head)] : isObject(node) && Object.hasOwn(node, head) ? node[head] : undefined;
      stack.push({ node: next, at: at + 1 });
    }
  }
  return removed;
}

/** `/value/items/3/extra` → `value, items, *, extra`: array indexes generalised. */
function segmentsOf(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? "*" : p.replace(/~1/g, "/").replace(/~0/g, "~")));
}

/** Peels unknown fields off a copy of `value` until the validator finds none first (at most MAX_UNKNOWN). */
export function declared(validateFn: Parameters<typeof validate>[0], value: unknown): Declared {
  let issues = validate(validateFn, value);
  const unknown: string[] = [];
  let copy: unknown;
  while (issues.length > 0 && issues[0]!.keyword === "additionalProperties" && unknown.length < MAX_UNKNOWN) {
    copy ??= structuredClone(value);
    const segments = segmentsOf(issues[0]!.pointer);
    if (removeEverywhere(copy, segments) === 0) break;
    unknown.push(`/${segments.join("/")}`);
    issues = validate(validateFn, copy);
  }
  return { value: copy ?? value, unknown, issues };
}
