/** Values whose JSON text is written once and kept beside them, for `stringifyJson` to splice in. */
import { ENCODED, type Encoded, stringifyJson } from "./stringify.js";

/**
 * Freezes `value` deeply and keeps its `stringifyJson` text beside it (not enumerable), so that
 * `stringifyJson` splices that text in wherever the value appears instead of walking it again. The
 * text is always the value's own, so input never becomes JSON text; a non-extensible value is returned as is.
 */
export function encodeOnce<T extends object>(value: T): T {
  // A value that cannot take the text (frozen, sealed) is left as it is: still written right, by walking it.
  if ((value as Encoded)[ENCODED] !== undefined || !Object.isExtensible(value)) return value;
  const text = stringifyJson(value);
  deepFreeze(value, 0);
  Object.defineProperty(value, ENCODED, { value: text });
  // Frozen after the text is attached: the value can no longer drift from its text.
  Object.freeze(value);
  return value;
}

/** Whether `value` was made by `encodeOnce` (its JSON text is kept). */
export function isEncoded(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Encoded)[ENCODED] !== undefined;
}

/** Freezes the objects and arrays inside `value` (not `value` itself: its text is attached first). */
function deepFreeze(value: object, depth: number): void {
  if (depth > 256) return;
  for (const v of Object.values(value)) {
    if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
      deepFreeze(v, depth + 1);
      Object.freeze(v);
    }
  }
}
