/**
 * Spec scale: does the generator, and does `photon-gen diff`, handle a spec the size of the
 * real upstream one (0.50.0: 36 methods, 5,140 lines) in under 3 s each?
 *
 *   npx tsx --conditions=photon-indexer-kit-source bench/spec-scale.ts [--methods 40] [--runs 5]
 *
 * Writes a synthetic spec shaped like upstream's (one path per method, inline JSON-RPC
 * envelopes and params, results built from shared components with `allOf` + `nullable`
 * wrappers, uint64/uint16 formats, enums, paginated methods, 429/500 responses) and a
 * "bumped" version of it (shared components changed, a method removed, one added), then
 * times generate (load, model, every emitter; writing excluded) and diff (load both, model
 * both, compare, classify, render): cold, in a fresh process (module import timed apart
 * from the first run), and warm, the median of further runs in this process, with CPU time
 * beside wall time since these machines are shared. Also times the real upstream 0.50.0
 * spec for comparison. Standalone: needs nothing else from bench/.
 *
 * `syntheticSpec` is exported for test/generator/diff/scale.test.ts, which uses a small one.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { stringify } from "yaml";
import { diffSpecs, render } from "../generator/diff/index.js";
import { emitAll } from "../generator/emit/index.js";
import { renderSchemaTypes } from "../generator/emit/types.js";
import { emitValidators } from "../generator/emit/validators.js";
import { generate } from "../generator/generate.js";
import { loadSpec } from "../generator/load.js";
import { buildModel } from "../generator/model.js";

type Node = { [key: string]: unknown };

export interface ScaleOptions {
  /** Number of JSON-RPC methods (upstream 0.50.0 has 36). */
  readonly methods: number;
  /** Number of shared object components besides the scalar ones (default: 0.75 per method). */
  readonly components?: number;
  /** The bumped version: shared components changed, the last method removed, one added. */
  readonly bumped?: boolean;
  readonly seed?: number;
}

/** A small deterministic PRNG (mulberry32), so a given seed always gives the same spec. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ref = (name: string): Node => ({ $ref: `#/components/schemas/${name}` });
const nullableRef = (name: string): Node => ({ allOf: [ref(name)], nullable: true });

const SCALARS: Record<string, Node> = {
  Hash: { type: "string", description: "A 32-byte hash represented as a base58 string.", example: "11111111111111111111111111111111" },
  SerializablePubkey: { type: "string", description: "A Solana public key represented as a base58 string.", default: "11111111111111111111111111111111" },
  Base64String: { type: "string", description: "A base 64 encoded string.", example: "SGVsbG8sIFdvcmxkIQ==" },
  UnsignedInteger: { type: "integer", format: "uint64", minimum: 0, example: 100 },
  Limit: { type: "integer", format: "uint64", minimum: 0 },
  Context: { type: "object", required: ["slot"], properties: { slot: { type: "integer", format: "uint64", minimum: 0, example: 100 } }, additionalProperties: false },
};
const FIELD_WORDS = ["owner", "mint", "delegate", "amount", "lamports", "state", "tree", "queue", "leafIndex", "seq", "slot", "hash", "root", "proof", "data", "tlv", "discriminator", "address", "signature", "index"];

function componentName(i: number): string {
  return `Record${String(i).padStart(3, "0")}`;
}

/**
 * An object component whose fields are scalars, enums, and refs to components of the tier
 * below (three tiers, so results nest about as deep as upstream's: item → account → data).
 */
function component(i: number, count: number, rnd: () => number, bumped: boolean): Node {
  const tier = Math.floor((3 * i) / count);
  const below = (): string => componentName(Math.floor(((tier - 1 + rnd()) * count) / 3));
  const properties: Node = {};
  const required: string[] = [];
  const fields = 4 + Math.floor(rnd() * 4);
  for (let f = 0; f < fields; f++) {
    const name = `${FIELD_WORDS[(i * 7 + f * 3) % FIELD_WORDS.length]}${f}`;
    const pick = rnd();
    let schema: Node;
    if (pick < 0.2) schema = ref("Hash");
    else if (pick < 0.35) schema = ref("SerializablePubkey");
    else if (pick < 0.5) schema = ref("UnsignedInteger");
    else if (pick < 0.6) schema = { type: "integer", format: "uint16", minimum: 0 };
    else if (pick < 0.7) schema = { type: "string", enum: ["Initialized", "Frozen"] };
    else if (pick < 0.78) schema = ref("Base64String");
    else if (pick < 0.9 && tier > 0) schema = nullableRef(below());
    else if (tier > 0) schema = { type: "array", items: ref(below()) };
    else schema = { type: "boolean" };
    schema = { ...schema, ...(rnd() < 0.5 ? { description: `The ${name} of the record, as the indexer stores it.` } : {}) };
    properties[name] = schema;
    if (rnd() < 0.7) required.push(name);
  }
  if (bumped && i % 7 === 0) {
    // The kinds of change a real bump brings: a new optional field in a closed object,
    // a field made nullable, an enum value added, a field made optional.
    properties.extra = { type: "string", description: "Added in the bumped version." };
    const first = Object.keys(properties)[0]!;
    properties[first] = { allOf: [properties[first]], nullable: true };
    for (const s of Object.values(properties)) if (Array.isArray((s as Node).enum)) (s as Node).enum = ["Initialized", "Frozen", "Closed"];
    required.pop();
  }
  return { type: "object", required, properties, additionalProperties: false };
}

function errorResponse(description: string): Node {
  const error = { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } } };
  return { description, content: { "application/json": { schema: { type: "object", properties: { error, id: { type: "string" }, jsonrpc: { type: "string" } } } } } };
}

function operation(name: string, i: number, components: number, rnd: () => number): Node {
  const paginated = i % 4 === 1;
  const params: Node = {
    type: "object",
    required: ["owner"],
    properties: {
      owner: ref("SerializablePubkey"),
      ...(rnd() < 0.5 ? { dataSlice: { allOf: [ref(componentName(Math.floor((rnd() * components) / 3)))], nullable: true } } : {}),
      ...(paginated ? { cursor: { allOf: [ref("Hash")], nullable: true }, limit: { allOf: [ref("Limit")], nullable: true } } : {}),
    },
    additionalProperties: false,
    description: `Request for ${name}`,
  };
  const item = componentName(Math.floor(((1 + 2 * rnd()) * components) / 3)); // tier 1 or 2
  const value: Node = paginated
    ? { type: "object", required: ["items"], properties: { cursor: nullableRef("Hash"), items: { type: "array", items: ref(item) } }, additionalProperties: false }
    : nullableRef(item);
  const result = { type: "object", required: ["context", "value"], properties: { context: ref("Context"), value }, additionalProperties: false };
  const envelope = (extra: Node): Node => ({
    id: { type: "string", description: "An ID to identify the request.", enum: ["test-account"] },
    jsonrpc: { type: "string", description: "The version of the JSON-RPC protocol.", enum: ["2.0"] },
    ...extra,
  });
  return {
    summary: name,
    post: {
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["jsonrpc", "id", "method", "params"],
              properties: envelope({ method: { type: "string", description: "The name of the method to invoke.", enum: [name] }, params }),
            },
          },
        },
      },
      responses: {
        "200": {
          description: "",
          content: { "application/json": { schema: { type: "object", required: ["jsonrpc", "id"], properties: envelope({ error: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } } }, result }) } } },
        },
        "429": errorResponse("Exceeded rate limit."),
        "500": errorResponse("The server encountered an unexpected condition that prevented it from fulfilling the request."),
      },
    },
  };
}

/** The YAML text of a synthetic upstream-like spec. */
export function syntheticSpec(options: ScaleOptions): string {
  const count = options.components ?? Math.ceil(options.methods * 0.75);
  const bumped = options.bumped === true;
  const schemas: Node = { ...SCALARS };
  const rnd = random(options.seed ?? 44);
  for (let i = 0; i < count; i++) schemas[componentName(i)] = component(i, count, rnd, bumped);
  const names = Array.from({ length: options.methods }, (_, i) => `getSyntheticMethod${String(i).padStart(2, "0")}`);
  if (bumped) names.splice(names.length - 1, 1, "getSyntheticMethodAdded");
  const paths: Node = {};
  const opRnd = random((options.seed ?? 44) + 1);
  names.forEach((name, i) => (paths[`/${name}`] = operation(name, i, count, opRnd)));
  const doc = {
    openapi: "3.0.3",
    info: { title: "synthetic-indexer", description: "A synthetic spec the size of upstream's", license: { name: "Apache-2.0" }, version: bumped ? "0.51.0" : "0.50.0" },
    servers: [{ url: "https://example.invalid?api-key=<api_key>" }],
    paths,
    components: { schemas },
  };
  return stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

const ms = (x: number) => `${Math.round(x)} ms`;

interface Cold {
  /** Process start to modules loaded (node, tsx, ts-morph, typescript, ajv, …): the CLI's startup, the same for any spec. */
  readonly startupMs: number;
  /** The first run in a fresh process: nothing warmed up. */
  readonly firstMs: number;
}

/** Child mode: run once, print startup and run times. Run by `cold()` in a fresh process. */
async function child(what: string, a: string, b: string | undefined): Promise<void> {
  const t1 = performance.now(); // since process start: this file's static imports are loaded
  if (what === "generate") await generate(a);
  else render(await diffSpecs(a, b!), "text");
  const result: Cold = { startupMs: t1, firstMs: performance.now() - t1 };
  process.stdout.write(JSON.stringify(result));
}

function cold(what: "generate" | "diff", a: string, b?: string): Cold {
  const args = ["--import", "tsx", "--conditions=photon-indexer-kit-source", fileURLToPath(import.meta.url), "--child", what, a, ...(b ? [b] : [])];
  const done = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (done.status !== 0) throw new Error(`child ${what} failed: ${done.stderr}`);
  return JSON.parse(done.stdout) as Cold;
}

interface Warm {
  readonly median: number;
  readonly max: number;
  /** Median CPU time (user + system, this process): less sensitive than wall time to other load on the machine. */
  readonly cpu: number;
}

async function warm(runs: number, fn: () => Promise<unknown>): Promise<Warm> {
  await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn();
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  return { median: median(wall), max: Math.max(...wall), cpu: median(cpu) };
}

/** Where generate's time goes: each stage once more, warm. */
async function stages(spec: string): Promise<string> {
  const at = performance.now();
  const model = buildModel(await loadSpec(spec));
  const modelled = performance.now();
  await renderSchemaTypes(model);
  const typed = performance.now();
  emitValidators(model);
  const compiled = performance.now();
  await emitAll(model, { generatorVersion: "bench" });
  const emitted = performance.now();
  const rest = emitted - compiled - (typed - modelled) - (compiled - typed);
  return `load + model ${ms(modelled - at)}; emit ${ms(emitted - compiled)} = openapi-typescript ${ms(typed - modelled)} + ajv ${ms(compiled - typed)} + ts-morph building and formatting ${ms(rest)}`;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const methods = arg("methods", 40);
  const runs = arg("runs", 5);
  const dir = mkdtempSync(join(tmpdir(), "spec-scale-"));
  try {
    const before = join(dir, "synthetic-0.50.0.yaml");
    const after = join(dir, "synthetic-0.51.0.yaml");
    const text = syntheticSpec({ methods });
    writeFileSync(before, text);
    writeFileSync(after, syntheticSpec({ methods, bumped: true }));
    const upstream = join(import.meta.dirname, "..", "test", "fixtures", "upstream-specs", "0.50.0", "api.yaml");
    const load = [loadavg()[0]!];

    // Fresh processes first (nothing warmed up in this one matters to them), then in-process warm runs.
    const rows: [string, Cold, Warm][] = [
      [`generate synthetic (${methods} methods)`, cold("generate", before), await warm(runs, () => generate(before))],
      ["diff synthetic → bumped", cold("diff", before, after), await warm(runs, async () => render(await diffSpecs(before, after), "text"))],
      ["diff synthetic → itself", cold("diff", before, before), await warm(runs, async () => render(await diffSpecs(before, before), "text"))],
      ["generate upstream 0.50.0", cold("generate", upstream), await warm(runs, () => generate(upstream))],
      ["diff upstream 0.50.0 → synthetic", cold("diff", upstream, before), await warm(runs, async () => render(await diffSpecs(upstream, before), "text"))],
    ];
    load.push(loadavg()[0]!);

    const model = buildModel(await loadSpec(before));
    const report = await diffSpecs(before, after);
    console.log(`synthetic spec: ${methods} methods, ${Object.keys(model.components).length} component schemas, ${text.split("\n").length} lines, ${Math.round(text.length / 1024)} KiB (upstream 0.50.0: 36 methods, 5,140 lines)`);
    console.log(`bumped version: ${report.summary.changes} changes (${report.summary.breakingClients} break clients, ${report.summary.breakingServers} break servers, ${report.summary.compatible} compatible)`);
    console.log(`Node ${process.version}, ${availableParallelism()} CPUs, load average ${load.map((l) => l.toFixed(2)).join(" → ")} (wall times grow with other load; cpu does much less)`);
    console.log(`cold: a fresh process (startup: node + tsx + modules loaded, then the first run); warm: ${runs} more runs in this process; limit 3000 ms a run\n`);
    const width = Math.max(...rows.map(([n]) => n.length));
    const heads = ["startup", "first", "warm med", "warm max", "warm cpu"];
    console.log(`${"".padEnd(width)}  ${heads.map((h) => h.padStart(9)).join("  ")}`);
    for (const [name, c, w] of rows) {
      const verdict = c.firstMs < 3000 && w.max < 3000 ? "ok" : "OVER 3 s";
      console.log(`${name.padEnd(width)}  ${[c.startupMs, c.firstMs, w.median, w.max, w.cpu].map((x) => ms(x).padStart(9)).join("  ")}  ${verdict}`);
    }
    console.log(`\ngenerate synthetic, by stage (warm): ${await stages(before)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--child");
  if (i > 0) await child(process.argv[i + 1]!, process.argv[i + 2]!, process.argv[i + 3]);
  else await main();
}
