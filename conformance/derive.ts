/**
 * Spec-derived cases: negative (and a few positive) cases generated from the method table
 * (`derived/<method>/<rule>`), so every method with params is certified on its params rules:
 * params absent, null or not a list (DECISIONS rows 5, 25, 58), a required param missing, wrong
 * JSON types, null where not nullable (row 20), integers out of bounds (row 19), bad base58 or
 * wrong length (row 16), unknown fields (rows 6, 57), and the same for list items. List caps and
 * unregistered methods are left to hand-written cases (rows 20/23/59, 54). Other params hold
 * well-formed values that name nothing, so the one rule broken is the case's own.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { stringify as stringifyYaml } from "yaml";
import { isObject, type Json, type MethodInfo, type ParamFact, type ParamShape } from "@photon-indexer-kit/runtime";
import { caseOrSkip, narrow, type ConformanceCase, type Fixtures } from "./case-format.js";
import type { Filled } from "./placeholders.js";
import { defaultSpec, shownSpecFile } from "./spec-bundle.js";
import { specMethods, type MethodTable } from "./spec-facts.js";

/** The folder (id prefix) of every derived case. */
export const DERIVED_PREFIX = "derived";
/** The tag every derived case carries. */
export const DERIVED_TAG = "derived";
/** The unknown field sent to test closed and open params. */
export const UNKNOWN_FIELD = "derivedUnknownField";
/** JSON-RPC "Invalid params". */
const INVALID_PARAMS = -32602;

/** One derived case as its YAML document says it (the case format of cases/README.md). */
export interface DerivedDocument {
  readonly id: string;
  readonly doc: Readonly<Record<string, Json>>;
}

const ZERO_32 = "1".repeat(32); // base58 of 32 zero bytes: a well-formed key or hash that names nothing
const BASE_VALUE: Readonly<Record<ParamFact["kind"], Json>> = {
  pubkey: ZERO_32,
  hash: ZERO_32,
  signature: "1".repeat(64),
  base58: "1",
  base64: "",
  string: "x",
  integer: 0,
  number: 0,
  boolean: false,
  object: {},
  array: [],
  any: null,
};
/** Base58 of N zero bytes is N `1`s: one byte short of the format's length. */
const SHORT: Partial<Record<ParamFact["kind"], string>> = { pubkey: "1".repeat(31), hash: "1".repeat(31), signature: "1".repeat(63) };
/** `0`, `O`, `I` and `l` are outside the Bitcoin base58 alphabet. */
const BAD_BASE58 = "0OIl".repeat(8);
const BASE58_KINDS: ReadonlySet<ParamFact["kind"]> = new Set(["pubkey", "hash", "signature", "base58"]);
/** In an open params object, the fixture that makes a well-formed call of a kind answer (an unknown hash is an error for proofs). */
const ANSWERING_FIXTURE: Partial<Record<ParamFact["kind"], string>> = { hash: "{{knownHash}}" };

/** One value of another JSON type than the kind's, or undefined for `any`. */
function wrongType(kind: ParamFact["kind"]): Json | undefined {
  switch (kind) {
    case "any":
      return undefined;
    case "integer":
    case "number":
      return "1";
    case "boolean":
      return "true";
    case "object":
    case "array":
      return "x";
    default:
      return 1;
  }
}

function wellFormed(fact: ParamFact): Json {
  if (fact.kind === "integer" && fact.minimum !== null && fact.minimum > 0) return fact.minimum;
  return BASE_VALUE[fact.kind];
}

/** The wrong values one param (or list item) of `fact` gets: rule suffix → value and what it shows. */
function badValues(fact: ParamFact): { rule: string; value: Json; what: string }[] {
  const out: { rule: string; value: Json; what: string }[] = [];
  const wrong = wrongType(fact.kind);
  if (wrong !== undefined)
    out.push({ rule: "wrong-type", value: wrong, what: `a ${typeof wrong === "string" ? "string" : "number"} where the schema takes ${fact.kind}` });
  if (BASE58_KINDS.has(fact.kind)) out.push({ rule: "bad-base58", value: BAD_BASE58, what: "characters outside the base58 alphabet" });
  const short = SHORT[fact.kind];
  if (short !== undefined) out.push({ rule: "wrong-length", value: short, what: `base58 of ${short.length} bytes, one short of a ${fact.kind}` });
  return out;
}

function invalid(): Record<string, Json> {
  return { error: INVALID_PARAMS };
}

/** The derived case documents of one method (none for a method the real server does not register). */
export function deriveMethod(info: MethodInfo & { readonly registered?: boolean }): DerivedDocument[] {
  const shape: ParamShape | null | undefined = info.paramShape;
  if (info.registered === false) return [];
  const out: DerivedDocument[] = [];
  const add = (rule: string, description: string, params: Json | undefined, expect: Record<string, Json>, tags: string[]) => {
    const doc: Record<string, Json> = { description, method: info.name };
    if (params !== undefined) doc.params = params;
    doc.expect = expect;
    doc.tags = [DERIVED_TAG, ...tags];
    out.push({ id: `${DERIVED_PREFIX}/${info.name}/${rule}`, doc });
  };
  const source = "derived from the method table (generated/methods.ts)";
  if (!info.hasParams) {
    // A method without params never parses them (DECISIONS rows 5, 73): whatever is sent, an ordinary answer, its result schema-checked.
    const ignored: [string, string, Json | undefined][] = [
      ["params-absent", "without `params`", undefined],
      ["params-null-ignored", "with `params: null`", null],
      ["params-object-ignored", "with an object of unknown params", { [UNKNOWN_FIELD]: 1 }],
      ["params-list-ignored", "with a list of params", [1, "x"]],
    ];
    for (const [rule, what, params] of ignored)
      add(rule, `${info.name} takes no params and never reads them: ${what}, an ordinary answer (DECISIONS rows 5, 73). ${source}`, params, {}, ["envelope"]);
    return out;
  }
  if (!shape) return out;
  add("params-absent", `${info.name} without \`params\`: -32602 (the envelope requires params; DECISIONS rows 5, 25). ${source}`, undefined, invalid(), [
    "envelope",
  ]);
  add("params-null", `${info.name} with \`params: null\`: -32602. ${source}`, null, invalid(), ["envelope"]);

  if (shape.type === "array") {
    add("params-not-list", `${info.name} takes a JSON array of params; an object is -32602 (DECISIONS row 58). ${source}`, {}, invalid(), ["list"]);
    if (shape.items) {
      const base = wellFormed(shape.items);
      for (const bad of badValues(shape.items)) {
        add(`${bad.rule}-item`, `${info.name}: a list item with ${bad.what}: -32602 (DECISIONS row 16). ${source}`, [base, bad.value], invalid(), [bad.rule]);
      }
    }
    return out;
  }

  const facts = shape.properties;
  const required = info.requiredParams.filter((p) => Object.hasOwn(facts, p));
  const base: Record<string, Json> = Object.fromEntries(required.map((p) => [p, wellFormed(facts[p]!)]));
  for (const p of required) {
    const { [p]: _left, ...rest } = base;
    add(`missing-${p}`, `${info.name} without its required param \`${p}\`: -32602. ${source}`, rest, invalid(), ["missing"]);
  }
  for (const [p, fact] of Object.entries(facts)) {
    for (const bad of badValues(fact)) {
      add(`${bad.rule}-${p}`, `${info.name}: \`${p}\` with ${bad.what}: -32602 (DECISIONS rows 16, 42). ${source}`, { ...base, [p]: bad.value }, invalid(), [
        bad.rule,
      ]);
    }
    if (!fact.nullable && fact.kind !== "any") {
      add(`null-${p}`, `${info.name}: \`${p}\` is not nullable, so \`null\` is -32602 (DECISIONS row 20). ${source}`, { ...base, [p]: null }, invalid(), [
        "null",
      ]);
    }
    if (fact.kind === "integer" && fact.maximum !== null) {
      const why = info.pagination?.limit === p ? `the page size's maximum (${info.pagination.maxLimit})` : `its maximum (${fact.maximum})`;
      add(
        `${p}-above-max`,
        `${info.name}: \`${p}\` one above ${why}: -32602, not clamped (DECISIONS row 19). ${source}`,
        { ...base, [p]: fact.maximum + 1 },
        invalid(),
        ["range"],
      );
    }
    if (fact.kind === "integer" && fact.minimum === 0) {
      add(`${p}-negative`, `${info.name}: \`${p}\` is unsigned, so -1 is -32602 (DECISIONS row 19). ${source}`, { ...base, [p]: -1 }, invalid(), ["range"]);
    }
  }
  if (shape.closed) {
    add(
      "unknown-field",
      `${info.name}'s params are closed (deny_unknown_fields): an unknown field is -32602 (DECISIONS row 6). ${source}`,
      { ...base, [UNKNOWN_FIELD]: 1 },
      invalid(),
      ["unknown-field"],
    );
  } else {
    // Open params (DECISIONS row 57): the unknown field is ignored, so a call that answers without it answers with it.
    const answering = Object.fromEntries(required.map((p) => [p, ANSWERING_FIXTURE[facts[p]!.kind] ?? base[p]!]));
    add(
      "unknown-field",
      `${info.name}'s params are open (no deny_unknown_fields): an unknown field is ignored (DECISIONS row 57). ${source}`,
      { ...answering, [UNKNOWN_FIELD]: 1 },
      {},
      ["unknown-field"],
    );
  }
  return out;
}

/** Every derived case document of a method table, in table order, each id once. */
export function deriveDocuments(table: MethodTable = specMethods): DerivedDocument[] {
  return Object.values(table).flatMap((info) => deriveMethod(info));
}

/** The JSON pointer of a method's path item (`#/paths/~1getIndexerSlot`). */
function pathPointer(path: string): string {
  return `#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** The YAML text of one derived document, as `cases derive` writes it. */
export function derivedYaml(d: DerivedDocument): string {
  return stringifyYaml(d.doc, { lineWidth: 0 });
}

/**
 * The derived cases, each as its YAML would read back (`asParsed`, a test holds the two equal),
 * read with the fixtures profile (a missing fixture skips); each names its `specFile` and method pointer.
 */
export function deriveCases(fixtures: Fixtures, table: MethodTable = specMethods, specFile: string = shownSpecFile(defaultSpec)): ConformanceCase[] {
  const filled: Filled = new Map();
  return deriveDocuments(table).map((d) => {
    const c = caseOrSkip(d.id, `${d.id}.yaml (derived)`, asParsed(d.doc), fixtures, filled);
    return { ...c, derivedFrom: { file: specFile, pointer: pathPointer(table[c.method]!.path) } };
  });
}

/** A document's value as YAML writes and reads it: undefined entries dropped, integers within 2^53 as numbers. */
function asParsed(value: unknown): Json {
  if (typeof value === "bigint") return narrow(value);
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : asParsed(v)));
  if (isObject(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = asParsed(v);
    return out;
  }
  return value as Json;
}

/** Hand-written cases first; a derived case whose id a hand-written one has is dropped. */
export function withDerived(handWritten: readonly ConformanceCase[], derived: readonly ConformanceCase[]): ConformanceCase[] {
  const ids = new Set(handWritten.map((c) => c.id));
  return [...handWritten, ...derived.filter((c) => !ids.has(c.id))];
}

/** Writes every derived case under `dir` as `<id>.yaml` (ids start with `derived/`); returns the files written. */
export async function writeDerived(dir: string, table: MethodTable = specMethods): Promise<string[]> {
  const files: string[] = [];
  for (const d of deriveDocuments(table)) {
    const file = join(dir, `${d.id}.yaml`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, derivedYaml(d));
    files.push(file);
  }
  return files;
}
