/**
 * A deterministic spec shaped like upstream's (shared components, allOf + nullable, u64 formats,
 * pagination) and its "bumped" version; full size in bench/spec-scale.ts, small in the diff tests.
 */
import { stringify } from "yaml";

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
  Context: {
    type: "object",
    required: ["slot"],
    properties: { slot: { type: "integer", format: "uint64", minimum: 0, example: 100 } },
    additionalProperties: false,
  },
};
const FIELD_WORDS = [
  "owner",
  "mint",
  "delegate",
  "amount",
  "lamports",
  "state",
  "tree",
  "queue",
  "leafIndex",
  "seq",
  "slot",
  "hash",
  "root",
  "proof",
  "data",
  "tlv",
  "discriminator",
  "address",
  "signature",
  "index",
];

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
  return {
    description,
    content: { "application/json": { schema: { type: "object", properties: { error, id: { type: "string" }, jsonrpc: { type: "string" } } } } },
  };
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
    ? {
        type: "object",
        required: ["items"],
        properties: { cursor: nullableRef("Hash"), items: { type: "array", items: ref(item) } },
        additionalProperties: false,
      }
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
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["jsonrpc", "id"],
                properties: envelope({ error: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } } }, result }),
              },
            },
          },
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
    info: {
      title: "synthetic-indexer",
      description: "A synthetic spec the size of upstream's",
      license: { name: "Apache-2.0" },
      version: bumped ? "0.51.0" : "0.50.0",
    },
    servers: [{ url: "https://example.invalid?api-key=<api_key>" }],
    paths,
    components: { schemas },
  };
  return stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}
