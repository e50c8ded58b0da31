/**
 * Builds one model of a JSON-RPC-over-OpenAPI spec: its methods (name, params, result,
 * pagination) and its component schemas, each in two forms: the OpenAPI source (for
 * openapi-typescript) and normalised JSON Schema (for ajv). Each `x-…` extension has its reader
 * in extensions/. Nothing here knows a method name: everything is read from the documents.
 */
import {
  isObject,
  type Json,
  type JsonObject,
  type MethodInfo,
  type MovingField,
  type ParamShape,
  type TransactionAccountsInfo,
} from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode, pointerOf, quote } from "./errors.js";
import type { LoadedSpec, SpecDocument } from "./load.js";
import { checkMethodCollisions, checkMethodName, OBJECT_MEMBERS, pascal } from "./emit/names.js";
import { checkAliases, readAliases } from "./extensions/aliases.js";
import type { OperationContext } from "./extensions/context.js";
import { readFilters } from "./extensions/filters.js";
import { readIdentity } from "./extensions/identity.js";
import { readLookup } from "./extensions/lookup.js";
import { readMaxItems } from "./extensions/max-items.js";
import { readMovesWith } from "./extensions/moves-with.js";
import { readPagination } from "./extensions/pagination.js";
import { readRegistered } from "./extensions/registered.js";
import { readSlot } from "./extensions/slot.js";
import { checkSumsTargets, readSums } from "./extensions/sums.js";
import { readTransactionAccounts } from "./extensions/transaction-accounts.js";
import { normalizeSchema } from "./normalize/index.js";
import { methodName } from "./method-name.js";
import { deref, fail, objectView, paramShape } from "./schema-view.js";

export const COMPONENTS_ID = "components.json";

export interface SchemaPair {
  /** The OpenAPI form, refs as `#/components/schemas/X` (for openapi-typescript). */
  readonly source: Json;
  /** The normalised JSON Schema, refs as `components#/definitions/X` (for ajv). */
  readonly normalized: JsonObject | boolean;
  /** The TypeScript name under `components["schemas"]`. */
  readonly typeName: string;
  /** Where the source schema stands: its file and JSON pointer. */
  readonly file: string;
  readonly pointer: string;
}

export interface MethodModel extends MethodInfo {
  readonly file: string;
  readonly pointer: string;
  /** Where the name was read: the `method` enum, the operationId or the path. */
  readonly namePointer: string;
  readonly description: string | null;
  /** Whether the envelope lists `params` as required. */
  readonly paramsRequired: boolean;
  readonly params: SchemaPair | null;
  readonly result: SchemaPair;
  /** Other names the server answers this method under (`x-aliases`), each with this method's validators and handler. */
  readonly aliases: readonly string[];
  /**
   * False when the spec documents a method the real server does not register (`x-registered: false`):
   * its handler is optional, and a server without one answers -32601 whatever the params.
   */
  readonly registered: boolean;
  readonly paramShape: ParamShape | null;
  readonly moving: readonly MovingField[];
  readonly transactionAccounts: TransactionAccountsInfo | null;
}

export interface SpecModel {
  readonly title: string;
  readonly version: string;
  readonly sha256: string;
  readonly source: string;
  readonly files: readonly { file: string; sha256: string }[];
  readonly methods: readonly MethodModel[];
  /** Component schemas by name, OpenAPI form, including synthetic params/result types. */
  readonly sourceComponents: Readonly<Record<string, Json>>;
  /** Component schemas by name, normalised. */
  readonly components: Readonly<Record<string, JsonObject | boolean>>;
  /** Where each component (synthetic ones included) stands in the source: file and JSON pointer. */
  readonly componentSources: Readonly<Record<string, { readonly file: string; readonly pointer: string }>>;
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;
/** OpenAPI 3.0.3 §4.7.7: keys of `components` maps match this. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]{1,256}$/;

/** Operation extensions the method table reads into its own fields (not repeated under `extensions`). */
export const TABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  "x-pagination",
  "x-filters",
  "x-lookup",
  "x-sums",
  "x-identity",
  "x-aliases",
  "x-registered",
  "x-transaction-accounts",
]);

interface Builder {
  readonly sourceComponents: Record<string, Json>;
  readonly components: Record<string, JsonObject | boolean>;
  readonly componentOrigin: Map<string, string>;
  readonly componentSources: Record<string, { file: string; pointer: string }>;
}

function rewriteRef(file: string) {
  return (ref: string, path: readonly (string | number)[]): string => {
    const m = SCHEMA_REF.exec(ref);
    if (!m)
      throw new GenError(GenErrorCode.REF_UNKNOWN, `schema $ref ${JSON.stringify(ref)} must point into #/components/schemas`, {
        file,
        pointer: pointerOf([...path, "$ref"]),
      });
    return `${COMPONENTS_ID}#/definitions/${m[1]}`;
  };
}

function addComponents(b: Builder, doc: SpecDocument): void {
  const schemas = isObject(doc.doc.components) ? doc.doc.components.schemas : undefined;
  if (schemas === undefined) return;
  if (!isObject(schemas)) fail(GenErrorCode.SCHEMA, "`components.schemas` must be a mapping", doc.file, ["components", "schemas"]);
  for (const [name, schema] of Object.entries(schemas)) {
    const path = ["components", "schemas", name];
    if (!COMPONENT_NAME.test(name) || OBJECT_MEMBERS.has(name)) {
      fail(GenErrorCode.NAME, `component name ${quote(name)} must match ${COMPONENT_NAME} (OpenAPI 3.0) and not be a member of every object`, doc.file, path);
    }
    const normalized = normalizeSchema(schema, { file: doc.file, path, rewriteRef: rewriteRef(doc.file) });
    if (Object.hasOwn(b.sourceComponents, name)) {
      // Per-method files repeat shared components; examples may differ, meaning may not.
      if (JSON.stringify(b.components[name]) !== JSON.stringify(normalized)) {
        fail(GenErrorCode.COMPONENT_CONFLICT, `component schema ${name} differs from the one in ${b.componentOrigin.get(name)}`, doc.file, path);
      }
      continue;
    }
    b.sourceComponents[name] = schema;
    b.componentOrigin.set(name, doc.file);
    b.componentSources[name] = { file: doc.file, pointer: pointerOf(path) };
    b.components[name] = normalized;
  }
}

function schemaPair(b: Builder, doc: SpecDocument, source: Json, path: (string | number)[], syntheticName: string): SchemaPair {
  const normalized = normalizeSchema(source, { file: doc.file, path, rewriteRef: rewriteRef(doc.file) });
  const where = { file: doc.file, pointer: pointerOf(path) };
  const ref = isObject(source) && typeof source.$ref === "string" && Object.keys(source).length === 1 ? SCHEMA_REF.exec(source.$ref) : null;
  if (ref) return { source, normalized, typeName: ref[1]!, ...where };
  let typeName = syntheticName;
  while (Object.hasOwn(b.sourceComponents, typeName)) typeName += "_";
  b.sourceComponents[typeName] = source;
  b.components[typeName] = normalized;
  b.componentSources[typeName] = where;
  return { source, normalized, typeName, ...where };
}

function content(doc: SpecDocument, holder: Json | undefined, path: (string | number)[], what: string): { schema: Json; path: (string | number)[] } {
  const resolved = deref(doc.doc, holder);
  const media = isObject(resolved) && isObject(resolved.content) ? resolved.content["application/json"] : undefined;
  if (!isObject(media) || media.schema === undefined) {
    return fail(GenErrorCode.NOT_JSONRPC, `${what} has no application/json schema`, doc.file, path);
  }
  return { schema: media.schema, path: [...path, "content", "application/json", "schema"] };
}

function buildMethod(b: Builder, doc: SpecDocument, route: string, operation: JsonObject, path: (string | number)[]): MethodModel {
  const request = content(doc, operation.requestBody, [...path, "requestBody"], "the request body");
  const envelope = deref(doc.doc, request.schema);
  if (!isObject(envelope) || !isObject(envelope.properties) || !("method" in envelope.properties) || !("jsonrpc" in envelope.properties)) {
    return fail(GenErrorCode.NOT_JSONRPC, "the request body is not a JSON-RPC envelope (needs `jsonrpc` and `method` properties)", doc.file, request.path);
  }
  const envelopeInline = isObject(request.schema) && request.schema.$ref === undefined;
  const { name, at: nameAt } = methodName(doc, envelope, operation, path, route, envelopeInline ? request.path : null);
  checkMethodName({ name, file: doc.file, pointer: pointerOf(path), namePointer: pointerOf(nameAt), pagination: null });
  const envelopeRequired = Array.isArray(envelope.required) ? envelope.required : [];
  const paramsSource = envelope.properties.params;
  const paramsPath = [...request.path, "properties", "params"];
  const paramsView = paramsSource === undefined ? undefined : objectView(doc.doc, paramsSource);
  const required = paramsView && Array.isArray(paramsView.required) ? paramsView.required.filter((r): r is string => typeof r === "string") : [];
  const names = paramsView && isObject(paramsView.properties) ? Object.keys(paramsView.properties) : [];

  const responses = operation.responses;
  if (!isObject(responses) || responses["200"] === undefined)
    return fail(GenErrorCode.NOT_JSONRPC, "the operation has no 200 response", doc.file, [...path, "responses"]);
  const response = content(doc, responses["200"], [...path, "responses", "200"], "the 200 response");
  const body = deref(doc.doc, response.schema);
  // 0.50.0 style: a JSON-RPC envelope whose `result` is the result. 0.44.0 style: the result itself.
  const isEnvelope = isObject(body) && isObject(body.properties) && "result" in body.properties && ("jsonrpc" in body.properties || "id" in body.properties);
  const resultSource: Json = isEnvelope ? (body.properties as JsonObject).result! : response.schema;
  const resultPath = isEnvelope ? [...response.path, "properties", "result"] : response.path;
  const resultView = objectView(doc.doc, resultSource);
  const Name = pascal(name);
  const ctx: OperationContext = {
    doc,
    operation,
    path,
    params: { source: paramsSource, view: paramsView, names, path: paramsPath },
    result: { source: resultSource, path: resultPath },
  };

  // Read in this order: when a spec has several faults, the first one read is the one reported.
  return {
    name,
    path: route,
    summary: typeof operation.summary === "string" ? operation.summary : null,
    description: typeof operation.description === "string" ? operation.description : null,
    file: doc.file,
    pointer: pointerOf(path),
    namePointer: pointerOf(nameAt),
    hasParams: paramsSource !== undefined,
    paramsRequired: envelopeRequired.includes("params"),
    requiredParams: required,
    optionalParams: names.filter((n) => !required.includes(n)),
    hasContext: !!resultView && isObject(resultView.properties) && "context" in resultView.properties && "value" in resultView.properties,
    pagination: readPagination(ctx),
    slot: readSlot(ctx),
    identity: readIdentity(ctx),
    filters: readFilters(ctx),
    lookup: readLookup(ctx),
    sums: readSums(ctx),
    maxItems: readMaxItems(ctx),
    extensions: Object.fromEntries(Object.entries(operation).filter(([k]) => k.startsWith("x-") && !TABLE_EXTENSIONS.has(k))),
    params: paramsSource === undefined ? null : schemaPair(b, doc, paramsSource, paramsPath, `${Name}Params`),
    result: schemaPair(b, doc, resultSource, resultPath, `${Name}Result`),
    aliases: readAliases(ctx),
    registered: readRegistered(ctx),
    paramShape: paramShape(doc.doc, paramsView, paramsSource),
    moving: readMovesWith(ctx),
    transactionAccounts: readTransactionAccounts(ctx),
  };
}

const VERBS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** The most methods one spec may define (10,000 generate in 17 s with 1.5 GB peak RSS on 2 cores). */
export const MAX_METHODS = 10_000;

export function buildModel(spec: LoadedSpec): SpecModel {
  const b: Builder = { sourceComponents: {}, components: {}, componentOrigin: new Map(), componentSources: {} };
  for (const doc of spec.documents) addComponents(b, doc);
  const methods: MethodModel[] = [];
  const seen = new Map<string, string>();
  let count = 0;
  for (const doc of spec.documents) {
    count += Object.keys(doc.doc.paths as JsonObject).length;
    if (count > MAX_METHODS)
      throw new GenError(GenErrorCode.LIMIT, `the spec defines more than ${MAX_METHODS} methods (paths), the most photon-gen generates`, {
        file: doc.file,
        pointer: "/paths",
      });
  }
  for (const doc of spec.documents) {
    for (const [route, item] of Object.entries(doc.doc.paths as JsonObject)) {
      const itemPath = ["paths", route];
      const pathItem = deref(doc.doc, item);
      if (!isObject(pathItem)) fail(GenErrorCode.SCHEMA, "a path item must be a mapping", doc.file, itemPath);
      const verbs = VERBS.filter((v) => v in pathItem);
      if (!verbs.includes("post")) fail(GenErrorCode.NOT_JSONRPC, "a JSON-RPC path needs a `post` operation", doc.file, itemPath);
      const operation = pathItem.post;
      if (!isObject(operation)) fail(GenErrorCode.SCHEMA, "the `post` operation must be a mapping", doc.file, [...itemPath, "post"]);
      const method = buildMethod(b, doc, route, operation, [...itemPath, "post"]);
      const where = `${doc.file}#${method.pointer}`;
      if (seen.has(method.name))
        fail(GenErrorCode.DUPLICATE_METHOD, `method ${quote(method.name)} is also defined at ${seen.get(method.name)}`, doc.file, [...itemPath, "post"]);
      seen.set(method.name, where);
      methods.push(method);
    }
  }
  checkMethodCollisions(methods);
  checkAliases(methods);
  checkSumsTargets(methods, seen);
  if (methods.length === 0) throw new GenError(GenErrorCode.NO_METHODS, "the spec defines no methods", { file: spec.source, pointer: "/paths" });
  const first = spec.documents[0]!.doc.info as JsonObject;
  return {
    title: String(first.title),
    version: String(first.version),
    sha256: spec.sha256,
    source: spec.source,
    files: spec.documents.map((d) => ({ file: d.file, sha256: d.sha256 })),
    methods,
    sourceComponents: b.sourceComponents,
    components: b.components,
    componentSources: b.componentSources,
  };
}
