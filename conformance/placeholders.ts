/**
 * A case's `{{name}}` placeholders, filled from the fixtures profile: `{{knownHash}}`, a dotted
 * path `{{trees.stateV2.0}}`, an index segment `{{owner.nullified.[0]}}`. A string that is one
 * placeholder takes the fixture's own value; inside text, its text. A fixture the profile lacks
 * is a MissingFixtureError (the case is skipped); any other `{{` is a CaseError.
 */
import { escapeRegExp, isObject, stringifyJson, type Json } from "@photon-indexer-kit/runtime";
import { CaseError, MissingFixtureError } from "./errors.js";
import { matcherName } from "./matchers.js";

/** The fixtures profile placeholders read (case-format.ts `Fixtures`). */
type Profile = Readonly<Record<string, Json>>;

const WHOLE = /^\{\{\s*([\w.[\]-]+)\s*\}\}$/;
/** Each `{{name}}` inside text. */
const PLACEHOLDER = /\{\{\s*([\w.[\]-]+)\s*\}\}/g;

function lookup(fixtures: Profile, path: string, file: string): Json {
  let node: Json | undefined = fixtures as Json;
  for (const step of path.split(".")) {
    const part = step.length > 2 && step.startsWith("[") && step.endsWith("]") ? step.slice(1, -1) : step; // a segment literal: `trees.[0]`
    // Own entries only: `{{constructor}}` names no fixture (it is not Object.prototype's).
    node = isObject(node) ? (Object.hasOwn(node, part) ? node[part] : undefined) : Array.isArray(node) && /^\d+$/.test(part) ? node[Number(part)] : undefined;
    if (node === undefined) throw new MissingFixtureError(file, path);
  }
  return node;
}

/** A fixture's value inside text, as JavaScript writes it: null as nothing, a list joined by commas, an object as `[object Object]`. */
function textOf(value: Json): string {
  if (value === null) return "";
  if (Array.isArray(value)) return value.map(textOf).join(",");
  return isObject(value) ? "[object Object]" : String(value);
}

/**
 * The placeholders inside `text` filled, each value written by `write`. Every placeholder is
 * looked up first (a missing fixture wins); then, in text that is no pattern, a `{{` that is no placeholder is malformed.
 */
function fillText(text: string, fixtures: Profile, file: string, write: (value: Json) => string, pattern = false): string {
  const filled = text.replace(PLACEHOLDER, (_, path: string) => write(lookup(fixtures, path, file)));
  const rest = pattern ? "" : text.replace(PLACEHOLDER, "");
  const at = rest.indexOf("{{");
  if (at >= 0) {
    const line = rest.slice(0, at).split("\n").length;
    throw new CaseError(file, `placeholder in ${JSON.stringify(text)}: Parse error on line ${line}: a placeholder is {{name}} or {{dotted.path}}`);
  }
  return filled;
}

/**
 * The strings with placeholders one load has filled, each with what it became: the bundled cases
 * hold ~15,000 placeholders over a few dozen distinct strings. One per load (the fixtures do not change while it lasts).
 */
export type Filled = Map<string, Json>;

/**
 * A case's regular expression (a `matches` matcher, `expect.error.messageMatches`) with its
 * placeholders filled as literal text: a profile's values (a discovered one's come from the
 * target) must not write regex syntax into the case's pattern.
 */
export function fillPattern(pattern: string, fixtures: Profile, file: string): string {
  if (!pattern.includes("{{")) return pattern;
  return fillText(pattern, fixtures, file, (v) => escapeRegExp(typeof v === "string" ? v : stringifyJson(v)), true);
}

/** Fills `{{name}}` placeholders: a string that is only a placeholder takes the fixture's own type. */
export function fillPlaceholders(value: Json | undefined, fixtures: Profile, file: string, filled: Filled = new Map()): Json | undefined {
  if (typeof value === "string") {
    if (!value.includes("{{")) return value;
    let got = filled.get(value);
    if (got !== undefined) return got;
    const whole = WHOLE.exec(value);
    got = whole ? lookup(fixtures, whole[1]!, file) : fillText(value, fixtures, file, textOf);
    filled.set(value, got);
    return got;
  }
  // Copied only where a placeholder was filled: most of a case holds none, and every run fills every case.
  if (Array.isArray(value)) {
    let out: Json[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = value[i]!;
      const got = fillPlaceholders(v, fixtures, file, filled) as Json;
      if (got !== v && out === null) out = value.slice(0, i);
      out?.push(got);
    }
    return out ?? value;
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (matcherName(value) === "matches" && typeof value.matches === "string") {
      const pattern = fillPattern(value.matches, fixtures, file);
      return pattern === value.matches ? value : { matches: pattern };
    }
    let out: Json[] | null = null;
    for (let i = 0; i < keys.length; i++) {
      const v = value[keys[i]!]!;
      const got = fillPlaceholders(v, fixtures, file, filled) as Json;
      if (got !== v && out === null) out = keys.slice(0, i).map((k) => value[k]!);
      out?.push(got);
    }
    return out === null ? value : Object.fromEntries(keys.map((k, i) => [k, out[i]!])); // fromEntries: a `__proto__` key stays a key
  }
  return value;
}

/**
 * The profile key of values set aside because they may move while the suite runs (a profile
 * discovered from a moving target, discover/moving.ts): placeholder path → the value seen.
 */
export const MAY_MOVE = "mayMove";

/** Why a case needing fixture `key` is skipped: the profile lacks it, or set it (or a parent) aside under MAY_MOVE. */
export function missingFixture(fixtures: Profile, key: string): string {
  const aside = fixtures[MAY_MOVE];
  const moves = isObject(aside) && Object.keys(aside).some((k) => key === k || key.startsWith(`${k}.`));
  return moves ? `needs fixture \`${key}\`, which may move on this target (the profile's ${MAY_MOVE})` : `needs fixture \`${key}\`, which the profile lacks`;
}
