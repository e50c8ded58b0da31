/**
 * Validators: every method's params and result schema and the envelope schemas, compiled once by ajv (strict)
 * and emitted as standalone TypeScript that a consumer's strict tsc accepts (`typedFunction`). Formats resolve to
 * the runtime's `formats`; the uint64/int64 keywords and ref-free referenced schemas (ajv `inlineRefs`) are inlined.
 */
import { _, Ajv, type KeywordCxt } from "ajv";
import { _Code } from "ajv/dist/compile/codegen/code.js";
import { UsedValueState, type UsedScopeValues, type ValueScopeName } from "ajv/dist/compile/codegen/scope.js";
import type { SchemaEnv } from "ajv/dist/compile/index.js";
import type { SourceCode } from "ajv/dist/types/index.js";
import { formats, internalError, linearRegExp, nonIntegerLiteral, UINT64_MAX, type Json } from "@photon-indexer-kit/runtime";
import { errorObjectSchema, requestEnvelopeSchema, responseEnvelopeSchema } from "../envelope.js";
import { GenError, GenErrorCode } from "../errors.js";
import { resolvePointer } from "../load.js";
import { COMPONENTS_ID, type SpecModel } from "../model.js";
import { identifier, schemaId } from "./escape.js";

const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;

function bigintLiteral(value: bigint): _Code {
  return new _Code(`${value}n`);
}

function addIntegerKeyword(ajv: Ajv, keyword: "uint64" | "int64", lowest: bigint, highest: bigint): void {
  ajv.addKeyword({
    keyword,
    schemaType: ["boolean", "object"],
    metaSchema: {
      anyOf: [{ const: true }, { type: "object", properties: { minimum: { type: "number" }, maximum: { type: "number" } }, additionalProperties: false }],
    },
    error: {
      message: ({ schema }: { schema: unknown }) => {
        const maximum = typeof schema === "object" && schema !== null ? (schema as { maximum?: number }).maximum : undefined;
        const bound = maximum !== undefined ? ` <= ${maximum}` : "";
        return _`${`must be ${keyword === "uint64" ? "an unsigned" : "a signed"} 64-bit integer${bound}`}`;
      },
      params: ({ schema }: { schema: unknown }) =>
        _`{maximum: ${typeof schema === "object" && schema !== null ? ((schema as { maximum?: number }).maximum ?? null) : null}}`,
    },
    code(cxt: KeywordCxt) {
      const { data, schema } = cxt;
      const bounds = typeof schema === "object" ? (schema as { minimum?: number; maximum?: number }) : {};
      const min = bounds.minimum !== undefined ? BigInt(Math.ceil(bounds.minimum)) : lowest;
      const max = bounds.maximum !== undefined ? BigInt(Math.floor(bounds.maximum)) : highest;
      // A number must be a safe integer (a larger one may already have been rounded).
      const numMin = Number(min < BigInt(Number.MIN_SAFE_INTEGER) ? BigInt(Number.MIN_SAFE_INTEGER) : min);
      const numMax = Number(max > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : max);
      cxt.fail(
        _`typeof ${data} == "bigint" ? (${data} < ${bigintLiteral(min)} || ${data} > ${bigintLiteral(max)}) : !(typeof ${data} == "number" && Number.isSafeInteger(${data}) && ${data} >= ${numMin} && ${data} <= ${numMax})`,
      );
    },
  });
}

/**
 * `integerLiteral`: the value was written as an integer in the JSON text it came from (serde
 * refuses `1.0`, `1e0`, `-0` for integer fields). The parsed value alone cannot tell, so the
 * check asks the runtime's record of how `parentData[parentDataProperty]` was written.
 */
function addIntegerLiteralKeyword(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: "integerLiteral",
    schemaType: "boolean",
    metaSchema: { const: true },
    error: { message: "must be written as an integer (no fraction, exponent or minus zero)" },
    code(cxt: KeywordCxt) {
      const literal = cxt.gen.scopeValue("func", { ref: nonIntegerLiteral, code: _`nonIntegerLiteral` });
      cxt.fail(_`${literal}(${cxt.it.parentData}, ${cxt.it.parentDataProperty}) !== undefined`);
    },
  });
}

export function createAjv(): Ajv {
  const ajv = new Ajv({
    strict: true,
    allowUnionTypes: true,
    allErrors: false,
    inlineRefs: true,
    // `pattern`/`patternProperties` run on RE2 (linear time): generated code imports `linearRegExp` from the runtime.
    code: { source: true, esm: true, lines: true, formats: _`formats`, regExp: linearRegExp },
  });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, validate);
  addIntegerKeyword(ajv, "uint64", 0n, UINT64_MAX);
  addIntegerKeyword(ajv, "int64", INT64_MIN, INT64_MAX);
  addIntegerLiteralKeyword(ajv);
  return ajv;
}

export interface ValidatorExports {
  /** export name → schema id, in a stable order */
  readonly exports: Record<string, string>;
  readonly methods: readonly { name: string; params: string; result: string }[];
}

/** How ajv (with our options) opens every validator: `function NAME` + this. */
const AJV_SIGNATURE = '(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){';
const CONTEXT_NAMES = ["instancePath", "parentData", "parentDataProperty", "rootData"] as const;

/** The declarations `typedFunction`'s output relies on, emitted once at the top of the module. */
export const VALIDATOR_PRELUDE = [
  "/** What ajv passes a nested validator: where the value sits in the validated document. */",
  "interface ValidateContext {",
  "  instancePath?: string | undefined;",
  "  parentData?: unknown;",
  "  parentDataProperty?: string | number | undefined;",
  "  rootData?: unknown;",
  "}",
].join("\n");

/**
 * One of ajv's validator functions as TypeScript that strict tsc accepts, with the same behaviour: `data: any`, a typed
 * context, ajv's error lists `any`, `NAME.errors` declared after the function, the unreachable `break;` dropped and the
 * `_errsN` snapshots typed `number` (else TS7022). Any form other than ajv's known one is an internal error.
 */
function typedFunction(code: string, name: string): string {
  const head = `function ${name}${AJV_SIGNATURE}`;
  const start = code.indexOf(head);
  if (start === -1 || code.indexOf(head, start + 1) !== -1) {
    throw internalError(GenErrorCode.INTERNAL, `photon-gen: internal error: ajv wrote ${name} in an unexpected form`);
  }
  const body = code.slice(start + head.length);
  const used = CONTEXT_NAMES.filter((n) => new RegExp(`\\b${n}\\b(?!:)`).test(body));
  const context =
    used.length === 0
      ? "_context: ValidateContext = {}"
      : `{${used.map((n) => (n === "instancePath" ? 'instancePath = ""' : n === "rootData" ? "rootData = data" : n)).join(", ")}}: ValidateContext = {}`;
  const typedBody = body
    .replace(/^(\s*)let (vErrors|passing\d+) = null;$/gm, "$1let $2: any = null;")
    .replace(/^(\s*)const (_errs\d+) = errors;$/gm, "$1const $2: number = errors;")
    .replace(/^(\s*return false;)\n\s*break;$/gm, "$1");
  const data = used.includes("rootData") || /\bdata\b(?!:)/.test(body) ? "data: any" : "_data: unknown";
  return `${code.slice(0, start)}function ${name}(${data}, ${context}): boolean {${typedBody}${typedBody.endsWith("\n") ? "" : "\n"}${name}.errors = null as AjvErrorObject[] | null;\n`;
}

/** Drops the schema constants ajv's scope declares but no code reads (`noUnusedLocals`). */
function withoutUnusedSchemas(code: string): string {
  const counts = new Map<string, number>();
  for (const m of code.matchAll(/\bschema\d+\b/g)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  return code.replace(/^const (schema\d+) = .*;\n/gm, (line, name: string) => (counts.get(name) === 1 ? "" : line));
}

/**
 * ajv's standalone module code (ajv/dist/standalone, multiExportsCode) with the same output,
 * written as a list of strings: ajv's own version grows one code object per export (quadratic,
 * and its argument spreading overflows the stack at a few thousand methods).
 */
function moduleCode(ajv: Ajv, exports: Record<string, string>): string {
  const used: UsedScopeValues = {};
  const state = (name: ValueScopeName) => used[name.prefix]?.get(name);
  const validateCode = (source: SourceCode | undefined): string => {
    if (!source) throw internalError(GenErrorCode.INTERNAL, "photon-gen: internal error: a validator has no source code");
    if (state(source.validateName) === UsedValueState.Completed) return "";
    (used[source.validateName.prefix] ??= new Map()).set(source.validateName, UsedValueState.Started);
    const scope = ajv.scope.scopeCode(source.scopeValues, used, (n) => {
      const ref = n.value?.ref;
      if (n.prefix === "validate" && typeof ref === "function") return new _Code(validateCode((ref as { source?: SourceCode }).source));
      if ((n.prefix === "root" || n.prefix === "wrapper") && typeof ref === "object") {
        const { validate, validateName } = ref as SchemaEnv;
        if (!validateName) throw internalError(GenErrorCode.INTERNAL, "photon-gen: internal error: ajv wrapper without a name");
        const wrapper = `const ${n} = {validate: ${validateName}};`;
        if (state(validateName) === UsedValueState.Started) return new _Code(wrapper);
        return new _Code(`${wrapper}\n${validateCode(validate?.source)}`);
      }
      return undefined;
    });
    const code = `${scope}\n${typedFunction(source.validateCode, String(source.validateName))}`;
    return source.evaluated ? `${code}${source.validateName}.evaluated = ${source.evaluated};\n` : code;
  };
  const parts: string[] = [];
  for (const [name, id] of Object.entries(exports)) {
    const validate = ajv.getSchema(id);
    if (!validate) throw internalError(GenErrorCode.INTERNAL, `photon-gen: internal error: no schema ${id}`);
    parts.push(`\nexport const ${identifier(name)}: StandaloneValidate = ${validate.source?.validateName};\n${validateCode(validate.source)}`);
  }
  return withoutUnusedSchemas(parts.join("").replace(/^\s+/, ""));
}

/**
 * The schema ajv checks against the draft-07 meta-schema, each enum cut to its first value: the
 * meta-schema's `uniqueItems` is quadratic, and normalize/index.ts already refuses duplicates. The whole schema is compiled.
 */
function withShortEnums(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withShortEnums);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const copy = key === "enum" && Array.isArray(value) ? value.slice(0, 1) : key === "const" ? value : withShortEnums(value);
    Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function addSchema(ajv: Ajv, schema: { $id: string } & Record<string, unknown>): void {
  ajv.validateSchema(withShortEnums(schema) as object, true);
  ajv.addSchema(schema, undefined, undefined, false);
}

/**
 * A normalised path inside a component, as a path in its source form: the `anyOf/0` level that
 * `nullable` adds is dropped where the source has none; failing that, the longest prefix that
 * exists in the source.
 */
function sourcePath(source: Json | undefined, path: string): string {
  if (source === undefined) return path;
  const exists = (p: string) => resolvePointer(source, `#${p}`) !== undefined;
  if (exists(path)) return path;
  const unwrapped = path.replace(/\/anyOf\/0(?=\/|$)/g, "");
  if (exists(unwrapped)) return unwrapped;
  const parts = unwrapped.split("/");
  while (parts.length > 1 && !exists(parts.join("/"))) parts.pop();
  return parts.join("/");
}

/**
 * Turns ajv's complaint into an error at the schema it is about: ajv names a normalised path
 * (`data/definitions/Name/properties/x/type`), which maps back to the component's place in the
 * source (normalisation keeps property paths; it may add an `anyOf` level for `nullable`).
 */
function locate(model: SpecModel, message: string): GenError {
  const first = message.split(/, data\//)[0]!;
  const m = /data\/definitions\/([^/\s,]+)((?:\/[^\s,]*)?)/.exec(message);
  const source = m ? model.componentSources[decodeURIComponent(m[1]!)] : undefined;
  if (source) {
    const rest = sourcePath(model.sourceComponents[decodeURIComponent(m![1]!)], m![2]!);
    return new GenError(GenErrorCode.SCHEMA, `invalid schema: ${first.replace(/^schema is invalid: data\/definitions\/[^\s]*\s*/, "")}`, {
      file: source.file,
      pointer: `${source.pointer}${rest}`,
    });
  }
  return new GenError(GenErrorCode.SCHEMA, `ajv cannot compile the spec's schemas: ${message}`, { file: model.source });
}

/**
 * Adds every schema of the model to `ajv` and compiles them, so errors surface here, located in the
 * spec. Shared by the standalone emitter and `compileSpec` (generator/compile.ts): same schemas, same ids.
 */
export function compileModelSchemas(ajv: Ajv, model: SpecModel): ValidatorExports {
  const exports: Record<string, string> = {};
  const methods: { name: string; params: string; result: string }[] = [];
  try {
    addSchema(ajv, { $id: COMPONENTS_ID, definitions: model.components });
    addSchema(ajv, { $id: "envelope-error.json", ...errorObjectSchema });
    addSchema(ajv, { $id: "envelope-request.json", ...requestEnvelopeSchema });
    addSchema(ajv, { $id: "envelope-response.json", ...responseEnvelopeSchema });
    for (const m of model.methods) {
      const params = identifier(`${m.name}Params`);
      const result = identifier(`${m.name}Result`);
      const wrap = (id: string, schema: unknown) =>
        typeof schema === "boolean" ? { $id: id, ...(schema ? {} : { not: {} }) } : { $id: id, ...(schema as object) };
      // Schema ids never hold spec text as it stands: ajv writes them into a comment.
      const paramsId = schemaId("method-", m.name, "-params.json");
      const resultId = schemaId("method-", m.name, "-result.json");
      addSchema(ajv, wrap(paramsId, m.params ? m.params.normalized : true));
      addSchema(ajv, wrap(resultId, m.result.normalized));
      exports[params] = paramsId;
      exports[result] = resultId;
      methods.push({ name: m.name, params, result });
    }
    exports.requestEnvelope = "envelope-request.json";
    exports.responseEnvelope = "envelope-response.json";
    exports.errorObject = "envelope-error.json";
    for (const id of Object.values(exports)) ajv.getSchema(id); // compile now, so errors surface here
  } catch (err) {
    throw locate(model, (err as Error).message);
  }
  return { exports, methods };
}

/** Compiles every schema of the model; returns the standalone module body (no banner). */
export function emitValidators(model: SpecModel): { code: string; layout: ValidatorExports } {
  const ajv = createAjv();
  const layout = compileModelSchemas(ajv, model);
  let code = moduleCode(ajv, layout.exports);
  if (code.includes("require(")) {
    // ajv's runtime helpers (deep equality, unicode length) are CommonJS; load them portably.
    code = `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${code}`;
  }
  return { code, layout };
}
