/**
 * Whether two parsed JSON values have the same JSON text (`stringifyJson(a) === stringifyJson(b)`)
 * without writing either: walks compare every item of a walk with the item at the same place in
 * another walk, and writing both was most of the walk's cost. Key order counts, as in the text;
 * a number and a bigint are the same where their texts are; a number JSON cannot write
 * (±Infinity, from `1e400`) is written `null`. For values `parseJson` makes (no functions,
 * symbols, undefined or toJSON).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true; // the same string, number, bigint value, literal or object: the same text
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
      return true;
    }
    // `b`'s keys are read in place (for-in allocates nothing; own keys only, in Object.keys order).
    const ka = Object.keys(a);
    let i = 0;
    for (const k in b) {
      if (!Object.hasOwn(b, k)) continue;
      if (k !== ka[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
      i++;
    }
    return i === ka.length;
  }
  if (typeof a === "string" || typeof b === "string") return a === b;
  return scalarText(a) === scalarText(b);
}

/** The JSON text of a scalar that is not a string. */
function scalarText(v: unknown): string {
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
  if (typeof v === "bigint") return v.toString();
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  return `(${typeof v})`; // an array or object against a scalar: never equal to a scalar's text
}
