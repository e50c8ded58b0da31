/**
 * What `parseJson` notes beside a parsed value: numbers written with a fraction, an exponent or as
 * `-0` (serde refuses them for integer fields, whatever their value), and keys written twice
 * (JSON.parse keeps the last; serde's derived structs refuse them).
 */

/** Parent object or array → (key → the literal as written) for each number not written as an integer. */
const nonIntegerLiterals = new WeakMap<object, Map<string | number, string>>();
/** Object → the keys written twice in it, in the order their second writing comes. */
const duplicatedKeys = new WeakMap<object, string[]>();
const NO_KEYS: readonly string[] = Object.freeze([]);

/**
 * The literal text of `parent[key]` when it is a number written with a fraction, an exponent or
 * as `-0` in text read by `parseJson` (`"1.0"`, `"1e3"`), else undefined. Integer fields refuse
 * such literals as serde does, whatever their value.
 */
export function nonIntegerLiteral(parent: unknown, key: string | number | undefined): string | undefined {
  if (typeof parent !== "object" || parent === null || key === undefined) return undefined;
  return nonIntegerLiterals.get(parent)?.get(key);
}

/**
 * The JSON pointer and name of the first key written twice in an object inside `value`, for
 * a value parsed with `{ duplicateKeys: true }`; null when there is none. Depth-first, in key order.
 */
export function duplicateKeyIn(value: unknown, pointer = ""): { pointer: string; key: string } | null {
  if (typeof value !== "object" || value === null) return null;
  const key = duplicatedKeys.get(value)?.[0];
  if (key !== undefined) return { pointer, key };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = duplicateKeyIn(value[i], `${pointer}/${i}`);
      if (found) return found;
    }
    return null;
  }
  for (const k of Object.keys(value)) {
    const found = duplicateKeyIn((value as Record<string, unknown>)[k], `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (found) return found;
  }
  return null;
}

/**
 * Every key written twice in `object` itself (not in its members), for a value parsed with
 * `{ duplicateKeys: true }`: jsonrpsee's envelope structs refuse only some of them (DECISIONS #43).
 */
export function duplicatedKeysOf(object: object): readonly string[] {
  return duplicatedKeys.get(object) ?? NO_KEYS;
}

/** What the scan found beside the big integers: literals to mark and objects with a duplicate key. */
export interface Marks {
  readonly literals: { path: (string | number)[]; token: string }[];
  readonly duplicates: { path: (string | number)[]; key: string }[];
  readonly keys: (Set<string> | undefined)[] | null;
}
/** The container a path leads to and the last step, in a parsed value (undefined when the path does not lead there). */
function parentAt(value: unknown, path: readonly (string | number)[]): object | undefined {
  let node = value;
  for (let p = 0; p < path.length - 1; p++) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[path[p]!];
  }
  return typeof node === "object" && node !== null ? node : undefined;
}

/** Records the scan's marks beside the parsed value. */
export function applyMarks(value: unknown, marks: Marks): void {
  for (const { path, token } of marks.literals) {
    if (path.length === 0) continue; // a bare number: no field to refuse it for
    const parent = parentAt(value, path);
    if (parent === undefined) continue;
    let map = nonIntegerLiterals.get(parent);
    if (map === undefined) nonIntegerLiterals.set(parent, (map = new Map()));
    map.set(path[path.length - 1]!, token);
  }
  for (const { path, key } of marks.duplicates) {
    const object = path.length === 0 ? value : (parentAt(value, path) as Record<string | number, unknown> | undefined)?.[path[path.length - 1]!];
    if (typeof object !== "object" || object === null) continue;
    const keys = duplicatedKeys.get(object);
    if (keys === undefined) duplicatedKeys.set(object, [key]);
    else if (!keys.includes(key)) keys.push(key);
  }
}
