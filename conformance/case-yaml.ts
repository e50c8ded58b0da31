/**
 * Reads one case file's YAML into JSON values with js-yaml (every run loads the whole corpus first):
 * the YAML 1.2 core schema, integers beyond 2^53 as `bigint`, duplicate keys refused, and one tag of
 * our own, `!repeat {count: N, item: V}`, a list of N copies of V. Aliases are expanded by a copy that
 * refuses a case past `MAX_VALUES` values or `MAX_DEPTH` levels. `yaml` stays where a document
 * model is needed (recording into files, the config file's line numbers).
 */
import jsyaml from "js-yaml";
import type { Json } from "@photon-indexer-kit/runtime";
import { CaseError } from "./errors.js";

/** The most values (scalars, lists, mappings) one case may hold once its aliases are expanded. */
export const MAX_VALUES = 200_000;

/** The deepest one case may nest, written out or once its aliases are expanded (aliases can stack levels). */
export const MAX_DEPTH = 256;

/**
 * js-yaml's own nesting guard (its default, 100, refused recordings the bounds above allow): past
 * MAX_DEPTH, so the copy below is what refuses, naming MAX_DEPTH; it only keeps js-yaml's recursion short.
 */
const PARSER_DEPTH = 2 * MAX_DEPTH;

/** YAML 1.2 core integers (decimal, `0o` octal, `0x` hex); a `bigint` beyond ±(2^53 - 1). */
const integer = new jsyaml.Type("tag:yaml.org,2002:int", {
  kind: "scalar",
  resolve: (text: string | null) => text !== null && /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/.test(text),
  construct: (text: string) => {
    const big = text.startsWith("0o") ? BigInt(`0o${text.slice(2)}`) : text.startsWith("-") ? -BigInt(text.slice(1)) : BigInt(text.replace(/^\+/, ""));
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  },
  predicate: (value: unknown) => typeof value === "bigint",
});

/** YAML 1.2 core floats: `1.5`, `-2e3`, `.5`, `.inf`, `-.Inf`, `.nan` (no underscores, unlike js-yaml's own). */
const FLOAT = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const float = new jsyaml.Type("tag:yaml.org,2002:float", {
  kind: "scalar",
  resolve: (text: string | null) => text !== null && FLOAT.test(text),
  construct: (text: string) => {
    if (/nan$/i.test(text)) return Number.NaN;
    if (/inf$/i.test(text)) return text.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    return Number(text);
  },
});

/** YAML 1.2 core null: `~`, `null`, `Null`, `NULL` or nothing. */
const nothing = new jsyaml.Type("tag:yaml.org,2002:null", {
  kind: "scalar",
  resolve: (text: string | null) => text === null || /^(?:~|null|Null|NULL|)$/.test(text),
  construct: () => null,
  predicate: (value: unknown) => value === null,
});

/** YAML 1.2 core booleans: `true`/`True`/`TRUE`, `false`/`False`/`FALSE`. */
const boolean = new jsyaml.Type("tag:yaml.org,2002:bool", {
  kind: "scalar",
  resolve: (text: string | null) => text !== null && /^(?:true|True|TRUE|false|False|FALSE)$/.test(text),
  construct: (text: string) => text[0] === "t" || text[0] === "T",
  predicate: (value: unknown) => typeof value === "boolean",
});

/** A `!repeat` mapping as written; `copy` expands it (each copy counted against MAX_VALUES). */
class Repeat {
  constructor(
    readonly count: number,
    readonly item: unknown,
  ) {}
}

/** What `!repeat` takes, said where js-yaml refuses one (it names the tag, line and column). */
const REPEAT_RULE = `\`!repeat\` takes {count: an integer from 0 to ${MAX_VALUES}, item: a value}`;

const repeat = new jsyaml.Type("!repeat", {
  kind: "mapping",
  resolve: (data: Record<string, unknown> | null) => {
    if (data === null) return false;
    const keys = Object.keys(data);
    const { count } = data;
    return keys.length === 2 && Object.hasOwn(data, "item") && typeof count === "number" && Number.isSafeInteger(count) && count >= 0 && count <= MAX_VALUES;
  },
  construct: (data: { count: number; item: unknown }) => new Repeat(data.count, data.item),
});

const CORE = jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [nothing, boolean, integer, float], explicit: [repeat] });

/**
 * Parses one case file's text (an empty file is `undefined`, one holding only comments `null`); text that is not one YAML document
 * of at most `MAX_VALUES` values is a `CaseError` naming `file` ("invalid YAML: …", with js-yaml's
 * line and column).
 */
export function parseCaseYaml(file: string, text: string): Json | undefined {
  let value: unknown;
  try {
    value = jsyaml.load(text, { schema: CORE, filename: file, maxDepth: PARSER_DEPTH } as jsyaml.LoadOptions);
  } catch (err) {
    const e = err as { reason?: string; mark?: { line: number; column: number } };
    const where = e.mark ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}` : "";
    const reason = e.reason?.includes("!<!repeat>") ? REPEAT_RULE : (e.reason ?? (err as Error).message.split("\n")[0]);
    throw new CaseError(file, `invalid YAML: ${reason}${where}`);
  }
  let budget = MAX_VALUES;
  const copy = (v: unknown, depth: number): Json => {
    if (--budget < 0) throw new CaseError(file, `more than ${MAX_VALUES} values once its aliases and repeats are expanded`);
    if (depth > MAX_DEPTH) throw new CaseError(file, `nested more than ${MAX_DEPTH} levels once its aliases and repeats are expanded`);
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
    if (v instanceof Repeat) {
      const list: Json[] = [];
      for (let i = 0; i < v.count; i++) list.push(copy(v.item, depth + 1));
      return list;
    }
    if (v !== null && typeof v === "object") {
      const out: Record<string, Json> = {};
      for (const [k, x] of Object.entries(v))
        if (k === "__proto__") Object.defineProperty(out, k, { value: copy(x, depth + 1), enumerable: true, writable: true, configurable: true });
        else out[k] = copy(x, depth + 1);
      return out;
    }
    return v as Json;
  };
  return value === undefined ? undefined : copy(value, 0);
}

/**
 * Why `value` could not be part of a case file, placed `depth` levels down in it, or null: more
 * than MAX_VALUES values or nested past MAX_DEPTH (`record` asks before writing an answer). Walked
 * with a stack, stopping at the first breach: the value may be a target's answer of any size.
 */
export function beyondCaseBounds(value: unknown, depth = 0): string | null {
  const tooMany = `holds more than ${MAX_VALUES} values`;
  let seen = 1; // values met so far, walked or waiting on the stack
  const stack: [unknown, number][] = [[value, depth]];
  const add = (x: unknown, d: number): boolean => ++seen <= MAX_VALUES && stack.push([x, d]) > 0;
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > MAX_DEPTH) return `nests more than ${MAX_DEPTH} levels`;
    if (Array.isArray(v)) {
      if (seen + v.length > MAX_VALUES) return tooMany;
      for (const x of v) add(x, d + 1);
    } else if (v !== null && typeof v === "object") {
      for (const k in v) if (Object.hasOwn(v, k) && !add((v as Record<string, unknown>)[k], d + 1)) return tooMany;
    }
  }
  return seen > MAX_VALUES ? tooMany : null;
}
