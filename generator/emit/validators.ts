/**
 * Validators: every method's params and result schema, and the envelope schemas, compiled
 * once by ajv (strict mode) and emitted as standalone ESM source, so nothing compiles a
 * schema at run time. Formats resolve to runtime/formats.ts through the `formats` import;
 * the uint64/int64 keywords are inlined code.
 */
import { _, Ajv, type KeywordCxt } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { _Code } from "ajv/dist/compile/codegen/code.js";
import { formats } from "../../runtime/formats.js";
import { errorObjectSchema, requestEnvelopeSchema, responseEnvelopeSchema } from "../envelope.js";
import { GenError, GenErrorCode } from "../errors.js";
import { resolvePointer, type Json } from "../load.js";
import { COMPONENTS_ID, type SpecModel } from "../model.js";

// ajv is CommonJS: its default export arrives as the module object under NodeNext.
type StandaloneCode = (ajv: Ajv, refs: Record<string, string>) => string;
const standaloneCode = (standaloneModule as unknown as { default: StandaloneCode }).default;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const UINT64_MAX = 18446744073709551615n;
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
      anyOf: [
        { const: true },
        { type: "object", properties: { minimum: { type: "number" }, maximum: { type: "number" } }, additionalProperties: false },
      ],
    },
    error: {
      message: ({ schema }: { schema: unknown }) => {
        const maximum = typeof schema === "object" && schema !== null ? (schema as { maximum?: number }).maximum : undefined;
        const bound = maximum !== undefined ? ` <= ${maximum}` : "";
        return _`${`must be ${keyword === "uint64" ? "an unsigned" : "a signed"} 64-bit integer${bound}`}`;
      },
      params: ({ schema }: { schema: unknown }) => _`{maximum: ${typeof schema === "object" && schema !== null ? ((schema as { maximum?: number }).maximum ?? null) : null}}`,
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

export function createAjv(): Ajv {
  const ajv = new Ajv({
    strict: true,
    allowUnionTypes: true,
    allErrors: false,
    inlineRefs: false,
    code: { source: true, esm: true, lines: true, formats: _`formats` },
  });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, validate);
  addIntegerKeyword(ajv, "uint64", 0n, UINT64_MAX);
  addIntegerKeyword(ajv, "int64", INT64_MIN, INT64_MAX);
  return ajv;
}

export interface ValidatorExports {
  /** export name → schema id, in a stable order */
  readonly exports: Record<string, string>;
  readonly methods: readonly { name: string; params: string; result: string }[];
}

function exportName(base: string, index: number, suffix: string): string {
  return IDENT.test(base) ? `${base}${suffix}` : `method${index}${suffix}`;
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
    return new GenError(GenErrorCode.SCHEMA, `invalid schema: ${first.replace(/^schema is invalid: data\/definitions\/[^\s]*\s*/, "")}`, { file: source.file, pointer: `${source.pointer}${rest}` });
  }
  return new GenError(GenErrorCode.SCHEMA, `ajv cannot compile the spec's schemas: ${message}`, { file: model.source });
}

/** Compiles every schema of the model; returns the standalone module body (no banner). */
export function emitValidators(model: SpecModel): { code: string; layout: ValidatorExports } {
  const ajv = createAjv();
  const exports: Record<string, string> = {};
  const methods: { name: string; params: string; result: string }[] = [];
  try {
    ajv.addSchema({ $id: COMPONENTS_ID, definitions: model.components });
    ajv.addSchema({ $id: "envelope-error.json", ...errorObjectSchema });
    ajv.addSchema({ $id: "envelope-request.json", ...requestEnvelopeSchema });
    ajv.addSchema({ $id: "envelope-response.json", ...responseEnvelopeSchema });
    model.methods.forEach((m, i) => {
      const params = exportName(m.name, i, "Params");
      const result = exportName(m.name, i, "Result");
      const wrap = (id: string, schema: unknown) =>
        typeof schema === "boolean" ? { $id: id, ...(schema ? {} : { not: {} }) } : { $id: id, ...(schema as object) };
      ajv.addSchema(wrap(`method-${m.name}-params.json`, m.params ? m.params.normalized : true));
      ajv.addSchema(wrap(`method-${m.name}-result.json`, m.result.normalized));
      exports[params] = `method-${m.name}-params.json`;
      exports[result] = `method-${m.name}-result.json`;
      methods.push({ name: m.name, params, result });
    });
    exports.requestEnvelope = "envelope-request.json";
    exports.responseEnvelope = "envelope-response.json";
    exports.errorObject = "envelope-error.json";
    for (const id of Object.values(exports)) ajv.getSchema(id); // compile now, so errors surface here
  } catch (err) {
    throw locate(model, (err as Error).message);
  }
  let code = standaloneCode(ajv, exports).replace(/^"use strict";\s*/, ""); // modules are strict already
  if (code.includes("require(")) {
    // ajv's runtime helpers (deep equality, unicode length) are CommonJS; load them portably.
    code = `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${code}`;
  }
  return { code, layout: { exports, methods } };
}
