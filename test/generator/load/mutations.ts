/**
 * Mutations of our spec that leave no valid spec, one generator per family, and a scratch output
 * folder generate must leave byte-identical.
 */
import fc from "fast-check";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { isMap, isScalar, LineCounter, parse as parseYaml, parseDocument, Scalar, visit } from "yaml";
import type { Json, JsonObject } from "@photon-indexer-kit/runtime";
import { main } from "../../../generator/cli.js";
import { captured, type Captured } from "../../helpers/capture.js";
import { ourSpec, root } from "../../helpers/paths.js";
import { useScratch } from "../../helpers/scratch.js";
import { untilEnd, whileLive } from "../../helpers/test-signal.js";

export const SEED = 20_251_122;

export type Path = (string | number)[];

export const shown = (file: string): string => relative(process.cwd(), file) || file;
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
export const pointerOf = (path: Path): string => path.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

export function resolve(doc: Json, pointer: string): Json | undefined {
  let node: Json | undefined = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (node !== null && typeof node === "object") node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

// ---------------------------------------------------------------------------------------
// The spec and the places where a mutation must break it.

const text = readFileSync(ourSpec, "utf8");
export const base = parseYaml(text) as JsonObject;
const schemas = (base.components as JsonObject).schemas as JsonObject;
const routes = Object.keys(base.paths as JsonObject);

/** Objects holding a `$ref`, and `properties` / `required` / `allOf` of component schemas. */
const refSites: Path[] = [];
const propertiesSites: Path[] = [];
const requiredSites: Path[] = [];
const allOfSites: Path[] = [];
const referenced = new Set<string>();
(function walk(node: Json, path: Path): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => walk(child, [...path, i]));
    return;
  }
  if (node === null || typeof node !== "object") return;
  if (typeof node.$ref === "string") {
    refSites.push(path);
    referenced.add(node.$ref.replace("#/components/schemas/", ""));
  }
  const inSchemas = path[0] === "components";
  if (inSchemas && typeof node.properties === "object" && !Array.isArray(node.properties)) propertiesSites.push([...path, "properties"]);
  if (inSchemas && Array.isArray(node.required)) requiredSites.push([...path, "required"]);
  if (inSchemas && Array.isArray(node.allOf)) allOfSites.push([...path, "allOf"]);
  for (const [key, child] of Object.entries(node)) if (key !== "example" && key !== "examples") walk(child, [...path, key]);
})(base, []);

/** Keys whose removal leaves no valid spec. */
const required: Path[] = [
  ["openapi"],
  ["info"],
  ["info", "title"],
  ["info", "version"],
  ["paths"],
  ["components", "schemas"],
  ...routes.flatMap((r): Path[] => {
    const op = ["paths", r, "post"];
    const req = [...op, "requestBody", "content", "application/json", "schema"];
    const res = [...op, "responses", "200", "content", "application/json", "schema"];
    return [
      op,
      [...op, "requestBody"],
      [...op, "requestBody", "content"],
      req,
      [...req, "properties"],
      [...req, "properties", "jsonrpc"],
      [...req, "properties", "method"],
      [...op, "responses"],
      [...op, "responses", "200"],
      res,
    ];
  }),
  ...[...referenced].map((name): Path => ["components", "schemas", name]),
];

/** Places with a required type, and values of every other type. */
const OBJECTS: Json[] = [[], "x", 5, null];
const typed: [Path, Json[]][] = [
  [["openapi"], [3, "2.0", null, [], {}]],
  [["info"], ["x", 5, [], null]],
  [
    ["info", "title"],
    [5, [], {}, null, true],
  ],
  [
    ["info", "version"],
    [5.1, [], {}, null],
  ],
  [["paths"], OBJECTS],
  [["components", "schemas"], OBJECTS],
  ...routes.map((r): [Path, Json[]] => [["paths", r], OBJECTS]),
  ...routes.map((r): [Path, Json[]] => [["paths", r, "post"], OBJECTS]),
  ...Object.keys(schemas).map((name): [Path, Json[]] => [
    ["components", "schemas", name],
    [[], "x", 5, null],
  ]), // true/false are valid schemas
  ...propertiesSites.map((p): [Path, Json[]] => [p, ["x", 5, [], null]]),
  ...requiredSites.map((p): [Path, Json[]] => [p, ["x", 5, {}, null, [5]]]),
  ...allOfSites.map((p): [Path, Json[]] => [p, ["x", 5, {}, null]]),
  ...routes
    .filter((r) => "x-pagination" in (((base.paths as JsonObject)[r] as JsonObject).post as JsonObject))
    .map((r): [Path, Json[]] => [
      ["paths", r, "post", "x-pagination"],
      ["x", 5, [], {}],
    ]),
];

/** YAML sites: keys of block mappings that begin their line, and those with a plain value on it. */
interface Site {
  keyText: string;
  lineStart: number;
  indent: number;
  valueOffset: number | null;
}
const sites: Site[] = [];
{
  const lines = new LineCounter();
  visit(parseDocument(text, { lineCounter: lines }), {
    Pair(_key, pair, path) {
      const parent = path[path.length - 1];
      if (!isMap(parent) || parent.flow || !isScalar(pair.key) || !pair.key.range) return;
      const offset = pair.key.range[0];
      const { line, col } = lines.linePos(offset);
      const lineStart = lines.lineStarts[line - 1]!;
      if (!/^ *$/.test(text.slice(lineStart, offset))) return;
      const v = pair.value;
      const start = isScalar(v) && v.type === Scalar.PLAIN && v.range ? v.range[0] : null;
      const plain = start !== null && lines.linePos(start).line === line;
      sites.push({ keyText: text.slice(offset, pair.key.range[1]), lineStart, indent: col - 1, valueOffset: plain ? start : null });
    },
  });
}
const valueSites = sites.filter((s) => s.valueOffset !== null);
const indentedSites = sites.filter((s) => s.indent > 0);

// ---------------------------------------------------------------------------------------
// Mutations.

type Structural =
  | { kind: "remove"; path: Path }
  | { kind: "set"; path: Path; value: Json }
  | { kind: "ref"; path: Path; how: "broken" | "self" | "mistyped" | "external"; n: number }
  | { kind: "cycle"; a: string; b: string }
  | { kind: "deep"; name: string; levels: number };
type Textual = { kind: "yaml"; how: "duplicate key" | "unclosed flow" | "unclosed quote" | "tab indent"; site: number };
export type Mutation = (Structural | Textual) & { pad: number };

export function clone<T>(value: T): T {
  return structuredClone(value);
}

export function setAt(doc: JsonObject, path: Path, value: Json | undefined): void {
  let parent: Json = doc;
  for (const s of path.slice(0, -1)) parent = (parent as JsonObject)[s as string]!;
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as JsonObject)[last as string];
  } else (parent as JsonObject)[last as string] = value;
}

const MISTYPED: Json[] = [5, [], {}, true, null];

/** The mutated document (structural) or text (YAML), written to a file. */
function apply(m: Mutation): { doc: JsonObject | null; text: string } {
  const padding = m.pad > 0 ? "a".repeat(m.pad) : "";
  if (m.kind === "yaml") {
    const pick = (list: Site[]) => list[m.site % list.length]!;
    let t: string;
    if (m.how === "duplicate key") {
      const s = pick(sites);
      t = `${text.slice(0, s.lineStart)}${" ".repeat(s.indent)}${s.keyText}: duplicate\n${text.slice(s.lineStart)}`;
    } else if (m.how === "tab indent") {
      const s = pick(indentedSites);
      t = `${text.slice(0, s.lineStart)}\t${text.slice(s.lineStart + 1)}`;
    } else {
      const s = pick(valueSites);
      t = `${text.slice(0, s.valueOffset!)}${m.how === "unclosed flow" ? "[" : '"'}${text.slice(s.valueOffset!)}`;
    }
    return { doc: null, text: padding ? `${t}\nx-padding: ${padding}\n` : t };
  }
  const doc = clone(base);
  switch (m.kind) {
    case "remove":
      setAt(doc, m.path, undefined);
      break;
    case "set":
      setAt(doc, m.path, clone(m.value));
      break;
    case "ref": {
      const target =
        m.how === "broken"
          ? `#/components/schemas/Missing${m.n}`
          : m.how === "self"
            ? `#${pointerOf(m.path)}`
            : m.how === "external"
              ? `other-${m.n}.yaml#/components/schemas/Hash`
              : null;
      setAt(doc, [...m.path, "$ref"], target ?? clone(MISTYPED[m.n % MISTYPED.length]!));
      break;
    }
    case "cycle":
      setAt(doc, ["components", "schemas", m.a], { $ref: `#/components/schemas/${m.b}` });
      setAt(doc, ["components", "schemas", m.b], { $ref: `#/components/schemas/${m.a}` });
      break;
    case "deep": {
      let schema: JsonObject = { type: "string" };
      for (let i = 0; i < m.levels; i++) schema = { type: "object", properties: { a: schema } };
      setAt(doc, ["components", "schemas", m.name], schema);
      break;
    }
  }
  if (padding) doc["x-padding"] = padding;
  // YAML is a superset of JSON: the mutated document is written as JSON, quicker to write.
  return { doc, text: JSON.stringify(doc, null, 1) };
}

const names = Object.keys(schemas);
const refNames = [...referenced];
/** One generator per family of mutation, each drawn in every run of the suite. */
export const FAMILIES = {
  remove: fc.constantFrom(...required).map((path): Structural => ({ kind: "remove", path })),
  set: fc.tuple(fc.constantFrom(...typed), fc.nat()).map(([[path, values], n]): Structural => ({ kind: "set", path, value: values[n % values.length]! })),
  ref: fc
    .tuple(fc.constantFrom(...refSites), fc.constantFrom("broken", "self", "mistyped", "external" as const), fc.nat(999))
    .map(([path, how, n]): Structural => ({ kind: "ref", path, how, n })),
  cycle: fc
    .tuple(fc.constantFrom(...refNames), fc.constantFrom(...refNames))
    .filter(([a, b]) => a !== b)
    .map(([a, b]): Structural => ({ kind: "cycle", a, b })),
  deep: fc.tuple(fc.constantFrom(...names), fc.integer({ min: 101, max: 300 })).map(([name, levels]): Structural => ({ kind: "deep", name, levels })),
  yaml: fc
    .tuple(fc.constantFrom("duplicate key", "unclosed flow", "unclosed quote", "tab indent" as const), fc.nat())
    .map(([how, site]): Textual => ({ kind: "yaml", how, site })),
} satisfies Record<Mutation["kind"], fc.Arbitrary<Structural | Textual>>;
/** A huge file: the mutation padded with 1 to 3 MB. */
export const PAD = fc.integer({ min: 1_000_000, max: 3_000_000 });

function describeMutation(m: Mutation): string {
  const { pad, ...rest } = m;
  return `${JSON.stringify(rest, (_k, v: unknown) => (typeof v === "string" && v.length > 60 ? `${v.slice(0, 60)}…` : v))}${pad ? ` padded by ${pad} bytes` : ""}`;
}

// ---------------------------------------------------------------------------------------
// The output folder.

export interface Output {
  readonly dir: string;
  readonly out: string;
  readonly specs: string;
  /** Runs `generate` in-process; a throw (an unhandled error) fails the test: main must always return a code. */
  generate(spec: string): Promise<Captured>;
  /** The output folder holds what it held before, and no staging or retired copy sits beside it. */
  expectUntouched(): void;
  /** Runs one mutation through generate: exit 2, one message naming the file and the place, output untouched. */
  expectRefused(m: Mutation, file: string): Promise<void>;
}

/** A scratch folder holding a copy of generated/ (`out`) and the mutated specs (`specs`). */
export function useOutput(name: string): Output {
  const dir = useScratch(name);
  const out = join(dir, "generated");
  const specs = join(dir, "specs");
  const snapshot = (): Map<string, Buffer> =>
    new Map(
      readdirSync(out)
        .sort()
        .map((f) => [f, readFileSync(join(out, f))]),
    );
  let before: Map<string, Buffer>;
  beforeAll(() => {
    mkdirSync(specs, { recursive: true });
    cpSync(join(root, "generated"), out, { recursive: true });
    before = snapshot();
  });
  const generate = (spec: string) => captured(main, ["generate", "--spec", spec, "--out", out]);
  function expectUntouched(): void {
    const now = snapshot();
    expect([...now.keys()]).toEqual([...before.keys()]);
    for (const [name, bytes] of before) expect(now.get(name)!.equals(bytes), `${name} changed`).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith(".generated."))).toEqual([]);
  }
  async function expectRefused(m: Mutation, file: string): Promise<void> {
    const { doc, text: mutated } = apply(m);
    writeFileSync(file, mutated);
    const r = await generate(file);
    const what = describeMutation(m);
    expect(r.code, what).toBe(2);
    expect(r.stdout, what).toBe("");
    expect(r.stderr, what).not.toMatch(/unexpected error|\n\s+at /);
    if (m.kind === "yaml") {
      const match = new RegExp(`^photon-gen: ${escapeRegExp(shown(file))}: invalid YAML at line (\\d+), column \\d+: .+ \\[PHOTON_GEN_ERR_YAML\\]\\n$`).exec(
        r.stderr,
      );
      expect(match, `${what}\n${r.stderr}`).not.toBeNull();
      expect(Number(match![1])).toBeLessThanOrEqual(mutated.split("\n").length);
    } else {
      const match = new RegExp(`^photon-gen: ${escapeRegExp(shown(file))}#((?:/[^\\s/]*)*): .+ \\[PHOTON_GEN_ERR_[A-Z_]+\\]\\n$`).exec(r.stderr);
      expect(match, `${what}\n${r.stderr}`).not.toBeNull();
      // The pointer names a node of the mutated document, or a missing key of one.
      const pointer = match![1]!;
      const parent = pointer.slice(0, Math.max(0, pointer.lastIndexOf("/")));
      expect(resolve(doc!, pointer) !== undefined || resolve(doc!, parent) !== undefined, `${what}: ${pointer}`).toBe(true);
    }
    expectUntouched();
  }
  return { dir, out, specs, generate, expectUntouched, expectRefused };
}

/** One test per family: `runs` mutations drawn from `seed`, each refused with exit 2. */
export function refusesEveryFamily(output: Output, runs: number, seed: number): void {
  it.for(Object.keys(FAMILIES) as Mutation["kind"][])(
    "%s: exits 2 naming the file and the JSON pointer (or YAML line), never throws, leaves generated/ byte-identical",
    async (kind, context) => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          FAMILIES[kind],
          whileLive(untilEnd(context), async (m) => {
            await output.expectRefused({ ...m, pad: 0 }, join(output.specs, `${kind}-${++run}.yaml`));
          }),
        ),
        { seed, numRuns: runs, endOnFailure: true },
      );
      expect(run).toBe(runs);
    },
  );
}
