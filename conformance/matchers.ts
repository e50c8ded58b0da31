/**
 * Matchers used by case expectations. A matcher is a literal (deep equality, numbers and
 * bigints compared by value) or an object with one matcher key:
 * `{any: true}`, `{absent: true}`, `{type: pubkey|hash|signature|base58|base64|uint64|string|number|boolean|null|array|object}`,
 * `{minItems: n}`, `{maxItems: n}`, `{length: n}`, `{oneOf: [..]}`, `{matches: "regex"}`, `{not: matcher}`,
 * `{some: {path: matcher, …}}` (an array with at least one element matching every path) and
 * `{has: {path: matcher, …}}` (an object whose paths all match), `{min: n}` (an integer at least n).
 */
import { formats, isObject, isUint64, linearRegExp, PatternError, type Json, type LinearRegExp } from "@photon-indexer-kit/runtime";

const MATCHER_KEYS = new Set(["any", "absent", "type", "minItems", "maxItems", "length", "oneOf", "matches", "not", "some", "has", "min"]);

export const ABSENT = Symbol("absent");

/** Reads a dotted path (`value.items.0.hash`); ABSENT when any step is missing. */
export function getPath(value: unknown, path: string): unknown {
  if (path === "" || path === ".") return value;
  let node: unknown = value;
  const steps = stepsOf(path);
  for (let i = 0; i < steps.keys.length; i++) {
    const part = steps.keys[i]!;
    if (Array.isArray(node)) {
      const at = steps.indexes[i]!;
      node = at >= 0 && at < node.length ? node[at] : ABSENT;
    } else if (isObject(node)) node = Object.hasOwn(node, part) ? node[part] : ABSENT;
    else return ABSENT;
    if (node === ABSENT) return ABSENT;
  }
  return node;
}

/** A path's steps: each key, and its array index where it is all digits (-1 otherwise). */
interface Steps {
  readonly keys: readonly string[];
  readonly indexes: readonly number[];
}

/** Paths split once: checks read the same few paths on every item of every page. Bounded (a case file may name any number). */
const stepsCache = new Map<string, Steps>();

function stepsOf(path: string): Steps {
  let steps = stepsCache.get(path);
  if (steps === undefined) {
    const keys = path.split(".");
    steps = { keys, indexes: keys.map((k) => (/^\d+$/.test(k) ? Number(k) : -1)) };
    if (stepsCache.size < 4096) stepsCache.set(path, steps);
  }
  return steps;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    // eslint-disable-next-line eqeqeq
    // biome-ignore lint/suspicious/noDoubleEquals: a number and a bigint of the same value compare equal only with ==
    return a == b;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return a === b;
}

/** The matcher's name when `m` is a matcher (an object of one known key), else undefined; read in place (matchers run per item of every page). */
export function matcherName(m: unknown): string | undefined {
  if (!isObject(m)) return undefined;
  let name: string | undefined;
  for (const k in m) {
    if (!Object.hasOwn(m, k)) continue;
    if (name !== undefined) return undefined;
    name = k;
  }
  return name !== undefined && MATCHER_KEYS.has(name) ? name : undefined;
}

/**
 * Why `arg` cannot be a case's pattern, or null: a pattern is text written in the case (never taken from
 * an answer) that RE2 runs (runtime/regex.ts: no lookaround or backreference).
 */
export function patternProblem(arg: unknown): string | null {
  if (typeof arg !== "string") return "must be a regular expression written as text (a pattern is never taken from an answer)";
  try {
    pattern(arg);
    return null;
  } catch (err) {
    if (err instanceof PatternError) return `cannot be used: ${err.message}`;
    throw err;
  }
}

/** Every `matches` matcher's argument inside `value` (expectations as loaded, at most case-yaml's MAX_DEPTH deep), with its dotted place. */
export function matchesArguments(value: unknown): { at: string; arg: unknown }[] {
  const found: { at: string; arg: unknown }[] = [];
  const path: (string | number)[] = [];
  const visit = (v: object): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === "object" && x !== null) {
          path.push(i);
          visit(x);
          path.pop();
        }
      }
      return;
    }
    if (matcherName(v) === "matches") {
      found.push({ at: path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join(""), arg: (v as Record<string, unknown>).matches });
      return;
    }
    for (const k in v) {
      const x: unknown = Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined;
      if (typeof x === "object" && x !== null) {
        path.push(k);
        visit(x);
        path.pop();
      }
    }
  };
  if (typeof value === "object" && value !== null) visit(value);
  return found;
}

/**
 * `matches` patterns compiled once (a case's pattern is matched against every item; every pattern
 * is a case's own text, `patternProblem`): at most MAX_PATTERNS kept, each at most
 * MAX_PATTERN_TEXT characters (a longer one is compiled for each use, not kept).
 */
const patterns = new Map<string, LinearRegExp>();
const MAX_PATTERNS = 1000;
const MAX_PATTERN_TEXT = 1024;

function pattern(source: string): LinearRegExp {
  let re = patterns.get(source);
  if (re === undefined) {
    re = linearRegExp(source);
    if (patterns.size < MAX_PATTERNS && source.length <= MAX_PATTERN_TEXT) patterns.set(source, re);
  }
  return re;
}

/** Whether a case's pattern (checked at load by `patternProblem`) matches `text`, in time linear in its length. */
export function matchesPattern(source: string, text: string): boolean {
  return pattern(source).test(text);
}

function typeOf(actual: unknown, type: string): boolean {
  switch (type) {
    case "pubkey":
    case "hash":
    case "signature":
    case "base58":
    case "base64":
      return typeof actual === "string" && formats[type](actual);
    case "uint64":
      return isUint64(actual);
    case "null":
      return actual === null;
    case "array":
      return Array.isArray(actual);
    case "object":
      return isObject(actual);
    case "number":
      return typeof actual === "number" || typeof actual === "bigint";
    default:
      return typeof actual === type;
  }
}

/** Returns null on a match, else a short reason. */
export function match(actual: unknown, expected: Json): string | null {
  const key = matcherName(expected);
  if (key === undefined) {
    if (actual === ABSENT) return "is absent";
    return deepEqual(actual, expected) ? null : "differs";
  }
  const arg = (expected as Record<string, Json>)[key]!;
  switch (key) {
    case "any":
      return actual === ABSENT ? "is absent" : null;
    case "absent":
      return actual === ABSENT ? null : "is present";
    case "type":
      return typeOf(actual, String(arg)) ? null : `is not ${String(arg)}`;
    case "minItems":
      return Array.isArray(actual) && actual.length >= Number(arg) ? null : `has fewer than ${String(arg)} items`;
    case "maxItems":
      return Array.isArray(actual) && actual.length <= Number(arg) ? null : `has more than ${String(arg)} items`;
    case "length":
      return Array.isArray(actual) && actual.length === Number(arg) ? null : `does not have ${String(arg)} items`;
    case "oneOf":
      return Array.isArray(arg) && arg.some((m) => match(actual, m) === null) ? null : "matches none of the options";
    case "matches":
      // A pattern is text the case wrote (checked when it loads): never a value from an answer, which could hold the check on a runaway regex.
      if (typeof arg !== "string") return "cannot be matched: the pattern is not text";
      return typeof actual === "string" && matchesPattern(arg, actual) ? null : `does not match /${arg}/`;
    case "not":
      return match(actual, arg as Json) === null ? "matches what it must not" : null;
    case "some":
      if (!Array.isArray(actual)) return "is not an array";
      return actual.some((item) => matchAll(item, arg) === null) ? null : `has no element matching ${Object.keys(isObject(arg) ? arg : {}).join(", ")}`;
    case "min":
      return atLeast(actual, arg) ? null : `is not a number >= ${String(arg)}`;
    case "has":
      return isObject(actual) ? matchAll(actual, arg) : "is not an object";
    default:
      return `unknown matcher ${key}`;
  }
}

/** Null when every `path: matcher` of `paths` matches `actual` at that path, else the first reason, naming the path. */
export function matchAll(actual: unknown, paths: Json): string | null {
  if (!isObject(paths)) return "needs {path: matcher, …}";
  for (const path in paths) {
    if (!Object.hasOwn(paths, path)) continue;
    const why = match(getPath(actual, path), paths[path]!);
    if (why !== null) return `${path} ${why}`;
  }
  return null;
}

function atLeast(actual: unknown, min: Json): boolean {
  if (typeof actual !== "number" && typeof actual !== "bigint") return false;
  const whole = (x: unknown): x is number | bigint => typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x));
  return whole(actual) && whole(min) ? BigInt(actual) >= BigInt(min) : Number(actual) >= Number(min);
}

/**
 * Whether `actual` holds the literal `expected`: every field it names, arrays item for item. Unnamed fields
 * are the schema check's to judge, never a case's failure (cases/README.md, "Literals").
 */
export function holds(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((x, i) => holds(actual[i], x));
  if (isObject(expected)) return isObject(actual) && Object.keys(expected).every((k) => Object.hasOwn(actual, k) && holds(actual[k], expected[k]));
  return deepEqual(actual, expected);
}
