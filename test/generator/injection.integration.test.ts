/**
 * No spec text runs as code: hostile strings in every text position of a small spec either exit 2
 * with a pointer, or generate code that type-checks and, run, never sets the payloads' marker.
 */
import fc from "fast-check";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "@photon-indexer-kit/runtime";
import { main } from "../../generator/cli.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";
import { untilEnd, whileLive } from "../helpers/test-signal.js";

const SEED = 20_261_124;
const dir = useScratch("injection");
const marker = globalThis as { __pwned?: unknown };

// ---------------------------------------------------------------------------------------
// Hostile strings: each would set the marker if it reached code as it stands.

const PWN = "globalThis.__pwned = 1";
const HOSTILE = [
  `*/ ${PWN}; /*`,
  `*/ ${PWN}; /**`,
  `getX*/ import("data:text/javascript,${PWN}"); /*`,
  `"; ${PWN}; "`,
  `'; ${PWN}; '`,
  `\`; ${PWN}; \``,
  `\${${PWN}}`,
  `\n${PWN};\n//`,
  `\r${PWN}; //`,
  `\u2028${PWN}; //`,
  `\u2029${PWN}; //`,
  `</script><script>${PWN}</script>`,
  `{{${PWN}}}`,
  `{{{constructor.constructor("${PWN}")()}}}`,
  `import("data:text/javascript,${PWN}")`,
  `a\0b`,
  `\ud800`,
  `x\udc00*/ ${PWN}; /*`,
  `\u202e${PWN}`,
  `<!-- ${PWN} -->`,
  `\\*/ ${PWN}; /*`,
  `@type {import("x")}`,
  `\`) + ${PWN} + (\``,
  "<long>", // 20,000 characters, then a comment breaker: expanded in specOf (counterexamples stay short)
  "__proto__",
  "constructor",
  "toString",
  "then",
  "rpc",
  "get-multiple",
  "method1",
  "",
];

const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...HOSTILE), fc.string({ unit: "binary", maxLength: 12 }), fc.constantFrom(...HOSTILE)).map(([a, b, c]) => a + b + c),
  },
);

/** Text positions: generation must escape them. */
const TEXT = [
  "title",
  "version",
  "summary",
  "description",
  "componentTitle",
  "componentDescription",
  "propertyDescription",
  "enumValue",
  "extension",
  "example",
] as const;
/** Name positions: a hostile value is either escaped or refused with a pointer. */
const NAMES = ["method", "paginatedMethod", "component", "property", "paramName", "pattern"] as const;

type Texts = Record<(typeof TEXT)[number], string>;
interface Case {
  readonly texts: Texts;
  readonly name: { readonly where: (typeof NAMES)[number]; readonly value: string } | null;
}

const cases: fc.Arbitrary<Case> = fc.record({
  texts: fc.record(Object.fromEntries(TEXT.map((k) => [k, hostile])) as { [K in keyof Texts]: fc.Arbitrary<string> }),
  name: fc.option(fc.record({ where: fc.constantFrom(...NAMES), value: hostile }), { freq: 2, nil: null }),
});

const escapePointer = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1");

function envelope(method: string, params: Json): Json {
  return {
    type: "object",
    required: ["jsonrpc", "method"],
    properties: { jsonrpc: { type: "string", enum: ["2.0"] }, id: { type: "string" }, method: { type: "string", enum: [method] }, params },
  };
}

function response(result: Json): Json {
  return {
    "200": {
      description: "ok",
      content: { "application/json": { schema: { type: "object", properties: { jsonrpc: { type: "string" }, id: { type: "string" }, result } } } },
    },
  };
}

const LONG = "x".repeat(20_000) + `*/ ${PWN}; /*`;
const expand = (s: string): string => s.replaceAll("<long>", LONG);

function specOf(c: Case): Json {
  const t = Object.fromEntries(Object.entries(c.texts).map(([k, v]) => [k, expand(v)])) as Texts;
  const named = (where: (typeof NAMES)[number], fallback: string) => (c.name?.where === where ? expand(c.name.value) : fallback);
  const method = named("method", "getItem");
  const paginated = named("paginatedMethod", "getItems");
  const component = named("component", "Item");
  const ref = { $ref: `#/components/schemas/${escapePointer(component)}` };
  const itemProperties: Record<string, Json> = {
    id: { type: "string", description: t.propertyDescription, pattern: named("pattern", "^[a-z]*$"), example: t.example },
    kind: { type: "string", enum: ["a", t.enumValue], nullable: true },
  };
  itemProperties[named("property", "extra")] = { type: "string" };
  return {
    openapi: "3.0.3",
    info: { title: t.title, version: t.version },
    paths: {
      "/getItem": {
        post: {
          operationId: method,
          summary: t.summary,
          description: t.description,
          "x-note": { [t.extension]: t.extension },
          requestBody: {
            content: { "application/json": { schema: envelope(method, { type: "object", properties: { [named("paramName", "id")]: { type: "string" } } }) } },
          },
          responses: response(ref),
        },
      },
      "/getItems": {
        post: {
          operationId: paginated,
          summary: t.description,
          requestBody: {
            content: {
              "application/json": {
                schema: envelope(paginated, {
                  type: "object",
                  properties: { cursor: { type: "string", nullable: true }, limit: { type: "integer" } },
                  additionalProperties: false,
                }),
              },
            },
          },
          responses: response({
            type: "object",
            required: ["items", "cursor"],
            properties: { items: { type: "array", items: ref }, cursor: { type: "string", nullable: true } },
          }),
        },
      },
    },
    components: {
      schemas: {
        [component]: { type: "object", title: t.componentTitle, description: t.componentDescription, required: ["id"], properties: itemProperties },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------

const generate = (spec: string, out: string) => captured(main, ["generate", "--spec", spec, "--out", out]);

function resolve(doc: Json, pointer: string): Json | undefined {
  let node: Json | undefined = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (node !== null && typeof node === "object") node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

const shown = (file: string): string => relative(process.cwd(), file) || file;
const reEscape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const describeCase = (c: Case): string => JSON.stringify(c, (_k, v: unknown) => (typeof v === "string" && v.length > 80 ? `${v.slice(0, 80)}…` : v));

/** Type-checks every generated folder (and a consumer of each) in one program; returns the errors in them. */
function typeCheck(folders: string[]): string[] {
  const roots = folders.flatMap((folder) => {
    const consumer = join(folder, "..", "consumer.ts");
    writeFileSync(
      consumer,
      [
        `import { createClient, createListener, methodNames, methodValidators, type Handlers, type MethodName } from "./out/index.js";`,
        `export const client = createClient({ url: "http://127.0.0.1:1/" });`,
        `export const names: readonly MethodName[] = methodNames;`,
        `export const check = (m: MethodName) => methodValidators[m].params({});`,
        `export const listen = (h: Handlers) => createListener(h);`,
      ].join("\n"),
    );
    return [join(folder, "index.ts"), consumer];
  });
  const program = ts.createProgram(roots, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["photon-indexer-kit-source"],
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    typeRoots: [join(root, "node_modules", "@types")],
    strict: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const ours = program.getSourceFiles().filter((sf) => sf.fileName.startsWith(dir));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...ours.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]),
  ];
  return diagnostics.map((d) => `${d.file ? relative(dir, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

interface Generated {
  readonly out: string;
  readonly what: string;
}

/** Imports one generated folder and runs everything it exports. */
async function exercise({ out, what }: Generated): Promise<void> {
  const mod = (await import(pathToFileURL(join(out, "index.ts")).href)) as {
    methods: Record<string, { pagination: unknown }>;
    methodNames: string[];
    methodValidators: Record<string, { params: (v: unknown) => boolean; result: (v: unknown) => boolean }>;
    envelopeValidators: Record<string, (v: unknown) => boolean>;
    createListener: (handlers: Record<string, (params: unknown) => unknown>) => Parameters<typeof createServer>[1];
    createClient: (options: { url: string; retry?: false; timeoutMs?: number }) => Record<string, (...args: unknown[]) => unknown>;
  };
  const item = { id: "abc", kind: "a", extra: "x" };
  const resultOf = (name: string) => (mod.methods[name]!.pagination ? { items: [item], cursor: null } : item);
  const handlers = Object.fromEntries(mod.methodNames.map((name) => [name, () => resultOf(name)]));
  const server: Server = createServer(mod.createListener(handlers));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  try {
    const address = server.address() as { port: number };
    const url = `http://127.0.0.1:${address.port}/`;
    const client = mod.createClient({ url, retry: false, timeoutMs: 5_000 });
    for (const name of mod.methodNames) {
      mod.methodValidators[name]!.params({});
      mod.methodValidators[name]!.result(resultOf(name));
      await Promise.resolve(client[name]!({})).catch(() => undefined);
      await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: "1", method: name, params: { id: "abc" } }),
      }).then((r) => r.text());
    }
    for (const [key, fn] of Object.entries(client)) {
      if (!key.startsWith("iterate")) continue;
      try {
        for await (const _ of fn({}) as AsyncIterable<unknown>) break;
      } catch {
        // A validation failure is fine here: only code execution matters.
      }
    }
    for (const validate of Object.values(mod.envelopeValidators)) validate({ jsonrpc: "2.0", id: "1", method: "x" });
  } finally {
    await new Promise((done) => server.close(done));
  }
  expect(marker.__pwned, what).toBeUndefined();
}

beforeAll(() => {
  delete marker.__pwned;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("hostile strings in every text position of a spec", () => {
  it("exit 2 with file and pointer, or code that type-checks and, run, executes nothing from the spec", async (context) => {
    const generated: Generated[] = [];
    const outcomes = { refused: 0, generated: 0 };
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        cases,
        whileLive(untilEnd(context), async (c) => {
          const folder = join(dir, `run-${++run}`);
          mkdirSync(folder, { recursive: true });
          const file = join(folder, "spec.json");
          const doc = specOf(c);
          writeFileSync(file, JSON.stringify(doc));
          const out = join(folder, "out");
          const r = await generate(file, out);
          const what = describeCase(c);
          expect(r.stderr, what).not.toMatch(/unexpected error|\n\s+at /);
          expect(marker.__pwned, what).toBeUndefined();
          if (r.code === 2) {
            const match = new RegExp(`^photon-gen: ${reEscape(shown(file))}#((?:/[^\\n]*?)?): [^\\n]+ \\[PHOTON_GEN_ERR_[A-Z_]+\\]\\n$`).exec(r.stderr);
            expect(match, `${what}\n${r.stderr}`).not.toBeNull();
            const pointer = match![1]!;
            const parent = pointer.slice(0, Math.max(0, pointer.lastIndexOf("/")));
            expect(resolve(doc, pointer) !== undefined || resolve(doc, parent) !== undefined, `${what}: ${pointer}`).toBe(true);
            outcomes.refused++;
            if (process.env.INJECTION_DEBUG) console.log(r.stderr.slice(0, 300));
            return;
          }
          expect(r.code, `${what}\n${r.stderr}`).toBe(0);
          // Every file is well-formed text: nothing the spec holds (a lone surrogate) is lost in UTF-8.
          const specHasReplacement = JSON.stringify(doc).includes("\ufffd");
          for (const name of readdirSync(out)) {
            const text = readFileSync(join(out, name), "utf8");
            if (!specHasReplacement) expect(text.includes("\ufffd"), `${name}: ${what}`).toBe(false);
          }
          generated.push({ out, what });
          outcomes.generated++;
        }),
      ),
      { seed: SEED, numRuns: 24, endOnFailure: true },
    );
    // Both outcomes were exercised.
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.generated).toBeGreaterThan(0);

    expect(typeCheck(generated.map((g) => g.out))).toEqual([]);
    for (const g of generated) await exercise(g);
    expect(marker.__pwned).toBeUndefined();
  }, 120_000);
});
