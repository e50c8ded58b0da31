/**
 * Builds one model of a JSON-RPC-over-OpenAPI spec: its methods (name, params, result,
 * pagination) and its component schemas, each in two forms: the OpenAPI source (for
 * openapi-typescript) and normalised JSON Schema (for ajv). Nothing here knows a method
 * name: everything is read from the documents.
 */
import {
  isObject,
  type Json,
  type JsonObject,
  type LookupInfo,
  type MethodInfo,
  type MovingField,
  type OrderKey,
  type PaginationInfo,
  type ParamShape,
  type SumsInfo,
  type TransactionAccountsInfo,
} from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode, pointerOf, quote } from "./errors.js";
import type { LoadedSpec, SpecDocument } from "./load.js";
import { checkMethodCollisions, checkMethodName, OBJECT_MEMBERS, pascal } from "./emit/names.js";
import { normalizeSchema } from "./normalize/index.js";
import { methodName } from "./method-name.js";
import { movingFields } from "./moving.js";
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

function readOrder(value: Json | undefined, file: string, path: (string | number)[]): OrderKey[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return fail(GenErrorCode.SCHEMA, "`order` must be a list", file, path);
  return value.map((entry, i) => {
    if (!isObject(entry) || typeof entry.field !== "string") return fail(GenErrorCode.SCHEMA, "an order key needs a `field`", file, [...path, i]);
    const direction = entry.direction ?? "asc";
    const compare = entry.compare ?? "string";
    if (direction !== "asc" && direction !== "desc") return fail(GenErrorCode.SCHEMA, "`direction` must be asc or desc", file, [...path, i, "direction"]);
    if (compare !== "integer" && compare !== "base58-bytes" && compare !== "string") {
      return fail(GenErrorCode.SCHEMA, "`compare` must be integer, base58-bytes or string", file, [...path, i, "compare"]);
    }
    return { field: entry.field, direction, compare };
  });
}

/** A number keyword (`maximum`, `x-default`) of a scalar schema, through `$ref`s and `allOf: [X]` + nullable wrappers. */
function scalarKeyword(doc: JsonObject, node: Json | undefined, key: string): number | null {
  let current = deref(doc, node);
  for (let i = 0; i < 16 && isObject(current); i++) {
    if (typeof current[key] === "number") return current[key];
    if (Array.isArray(current.allOf) && current.allOf.length === 1) current = deref(doc, current.allOf[0]);
    else return null;
  }
  return null;
}

function pagination(
  doc: SpecDocument,
  operation: JsonObject,
  params: JsonObject | undefined,
  result: Json | undefined,
  path: (string | number)[],
): PaginationInfo | null {
  const declared = operation["x-pagination"];
  const paramNames = params && isObject(params.properties) ? Object.keys(params.properties) : [];
  const limits = (limit: string | null) => {
    const schema = limit !== null && params && isObject(params.properties) ? params.properties[limit] : undefined;
    return { maxLimit: scalarKeyword(doc.doc, schema, "maximum"), defaultLimit: scalarKeyword(doc.doc, schema, "x-default") };
  };
  if (declared !== undefined) {
    const at = [...path, "x-pagination"];
    if (!isObject(declared) || typeof declared.items !== "string" || typeof declared.cursor !== "string") {
      return fail(GenErrorCode.SCHEMA, "`x-pagination` needs string `items` and `cursor`", doc.file, at);
    }
    const limit = typeof declared.limit === "string" ? declared.limit : paramNames.includes("limit") ? "limit" : null;
    return { items: declared.items, cursor: declared.cursor, limit, order: readOrder(declared.order, doc.file, [...at, "order"]), ...limits(limit) };
  }
  // Inferred: a `cursor` param, and a result value holding `cursor` plus exactly one array.
  if (!paramNames.includes("cursor")) return null;
  const resultView = objectView(doc.doc, result);
  const inner = resultView && isObject(resultView.properties) ? resultView.properties.value : undefined;
  const value = inner === undefined ? resultView : objectView(doc.doc, inner);
  if (!value || !isObject(value.properties) || !("cursor" in value.properties)) return null;
  const arrays = Object.entries(value.properties).filter(([, s]) => {
    const v = deref(doc.doc, s);
    return isObject(v) && (v.type === "array" || "items" in v);
  });
  if (arrays.length !== 1) return null;
  const limit = paramNames.includes("limit") ? "limit" : null;
  return { items: arrays[0]![0], cursor: "cursor", limit, order: null, ...limits(limit) };
}

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

const isParam = (params: readonly string[], name: unknown): name is string => typeof name === "string" && params.includes(name);

/** `x-filters`: a mapping from params to the dotted item field each must equal. */
function readFilters(value: Json | undefined, params: readonly string[], file: string, path: (string | number)[]): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) return fail(GenErrorCode.SCHEMA, "`x-filters` must map params to item fields", file, path);
  for (const [param, field] of Object.entries(value)) {
    if (!params.includes(param)) fail(GenErrorCode.SCHEMA, `\`x-filters\` names ${quote(param)}, which is not a param of the method`, file, [...path, param]);
    if (typeof field !== "string" || field === "") fail(GenErrorCode.SCHEMA, "an `x-filters` entry must name an item field", file, [...path, param]);
  }
  return { ...(value as Record<string, string>) };
}

/** `x-lookup`: `{items?, by: [{param, field}]}`. */
function readLookup(value: Json | undefined, params: readonly string[], file: string, path: (string | number)[]): LookupInfo | null {
  if (value === undefined) return null;
  if (!isObject(value) || !Array.isArray(value.by) || value.by.length === 0)
    return fail(GenErrorCode.SCHEMA, "`x-lookup` needs a non-empty `by` list", file, path);
  if (value.items !== undefined && typeof value.items !== "string")
    return fail(GenErrorCode.SCHEMA, "`x-lookup.items` must name the page's array field", file, [...path, "items"]);
  const by = value.by.map((entry, i) => {
    if (!isObject(entry) || !isParam(params, entry.param) || typeof entry.field !== "string") {
      return fail(GenErrorCode.SCHEMA, "an `x-lookup.by` entry needs a `param` of the method and an item `field`", file, [...path, "by", i]);
    }
    return { param: entry.param, field: entry.field };
  });
  return { items: typeof value.items === "string" ? value.items : null, by };
}

/** `x-sums`: `{method, params, key: {field, of}, sum: {field, of}}`; `method` is checked once every method is known. */
function readSums(value: Json | undefined, params: readonly string[], file: string, path: (string | number)[]): SumsInfo | null {
  if (value === undefined) return null;
  const field = (v: Json | undefined, key: string) => {
    if (!isObject(v) || typeof v.field !== "string" || typeof v.of !== "string")
      return fail(GenErrorCode.SCHEMA, `\`x-sums.${key}\` needs \`field\` and \`of\``, file, [...path, key]);
    return { field: v.field, of: v.of };
  };
  if (!isObject(value) || typeof value.method !== "string") return fail(GenErrorCode.SCHEMA, "`x-sums` needs the `method` whose items it sums", file, path);
  const shared = value.params ?? [];
  if (!Array.isArray(shared) || !shared.every((p) => isParam(params, p)))
    return fail(GenErrorCode.SCHEMA, "`x-sums.params` must list params of the method", file, [...path, "params"]);
  return { method: value.method, params: shared as string[], key: field(value.key, "key"), sum: field(value.sum, "sum") };
}

/** The schema a dotted path (each segment a property) reaches from `node`, or undefined when a segment is no property. */
function schemaAtPath(doc: JsonObject, node: Json | undefined, dotted: string): Json | undefined {
  let current = node;
  for (const segment of dotted.split(".")) {
    const view = objectView(doc, current);
    if (!view || !isObject(view.properties) || !Object.hasOwn(view.properties, segment)) return undefined;
    current = view.properties[segment];
  }
  return current;
}

/**
 * `x-transaction-accounts`: `{opened: {list, hash}, closed: {list, hash}}`, where a transaction's
 * result lists the accounts it opened and closed (`list`, an array property dotted from the result)
 * and where each entry names the account's hash (`hash`, dotted from the entry). Both paths are
 * checked against the result schema.
 */
function readTransactionAccounts(
  doc: JsonObject,
  value: Json | undefined,
  result: Json,
  file: string,
  path: (string | number)[],
): TransactionAccountsInfo | null {
  if (value === undefined) return null;
  if (!isObject(value)) return fail(GenErrorCode.SCHEMA, "`x-transaction-accounts` must map `opened` and `closed` to `{list, hash}`", file, path);
  for (const key of Object.keys(value)) {
    if (key !== "opened" && key !== "closed")
      fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts\` keys are opened and closed, not ${quote(key)}`, file, [...path, key]);
  }
  const side = (key: "opened" | "closed") => {
    const v = value[key];
    const at = [...path, key];
    if (!isObject(v) || typeof v.list !== "string" || v.list === "" || typeof v.hash !== "string" || v.hash === "")
      return fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts.${key}\` needs a \`list\` path and a \`hash\` path`, file, at);
    const list = deref(doc, schemaAtPath(doc, result, v.list));
    if (!isObject(list) || list.type !== "array" || list.items === undefined)
      return fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts.${key}.list\` names ${quote(v.list)}, which is not an array of the result`, file, [
        ...at,
        "list",
      ]);
    if (schemaAtPath(doc, list.items, v.hash) === undefined)
      return fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts.${key}.hash\` names ${quote(v.hash)}, which is not a field of the list's entries`, file, [
        ...at,
        "hash",
      ]);
    return { list: v.list, hash: v.hash };
  };
  return { opened: side("opened"), closed: side("closed") };
}

function readIdentity(value: Json | undefined, file: string, path: (string | number)[]): string | null {
  if (value === undefined) return null;
  if (typeof value !== "string" || value === "") return fail(GenErrorCode.SCHEMA, "`x-identity` must name an item field", file, path);
  return value;
}

/**
 * `x-aliases`: other names of the method (Photon registers `getCompressedBalance` with the handler of
 * `getCompressedAccountBalance`). Each must be a valid method name; collisions are checked once every
 * method is known.
 */
function readAliases(value: Json | undefined, file: string, path: (string | number)[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail(GenErrorCode.SCHEMA, "`x-aliases` must be a list of method names", file, path);
  return value.map((alias, i) => {
    if (typeof alias !== "string") return fail(GenErrorCode.METHOD_NAME, "an `x-aliases` entry must be a method name", file, [...path, i]);
    checkMethodName({ name: alias, file, pointer: pointerOf(path), namePointer: pointerOf([...path, i]), pagination: null });
    return alias;
  });
}

/** `x-registered`: a boolean, default true (false: documented, but the real server does not register the method). */
function readRegistered(value: Json | undefined, file: string, path: (string | number)[]): boolean {
  if (value === undefined) return true;
  if (typeof value !== "boolean") return fail(GenErrorCode.SCHEMA, "`x-registered` must be true or false", file, path);
  return value;
}

/** No alias may take the name of a method or of another alias, ignoring case (the names are keys of one dispatch table). */
function checkAliases(methods: readonly MethodModel[]): void {
  const taken = new Map<string, string>();
  for (const m of methods) taken.set(m.name.toLowerCase(), `method ${m.name} at ${m.file}#${m.namePointer}`);
  for (const m of methods) {
    m.aliases.forEach((alias, i) => {
      const other = taken.get(alias.toLowerCase());
      if (other !== undefined) {
        throw new GenError(GenErrorCode.METHOD_NAME, `alias ${quote(alias)} of method ${m.name} collides with ${other}`, {
          file: m.file,
          pointer: `${m.pointer}/x-aliases/${i}`,
        });
      }
      taken.set(alias.toLowerCase(), `alias ${alias} of method ${m.name}`);
    });
  }
}

/**
 * `x-max-items` of each param (a list cap the handler enforces with an application error). When the
 * params are themselves a JSON array (the proof methods), its cap is under the key `""`.
 */
function readMaxItems(
  doc: JsonObject,
  params: JsonObject | undefined,
  source: Json | undefined,
  file: string,
  path: (string | number)[],
): Record<string, number> {
  const out: Record<string, number> = {};
  if (!params && source !== undefined) {
    const list = deref(doc, source);
    const cap = isObject(list) && list["x-max-items"] !== undefined ? list["x-max-items"] : scalarKeyword(doc, source, "x-max-items");
    if (cap === null || cap === undefined) return out;
    if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 0)
      fail(GenErrorCode.SCHEMA, "`x-max-items` must be a non-negative integer", file, [...path.slice(0, -1), "x-max-items"]);
    out[""] = cap as number;
    return out;
  }
  if (!params || !isObject(params.properties)) return out;
  for (const [name, schema] of Object.entries(params.properties)) {
    const cap = isObject(schema) && schema["x-max-items"] !== undefined ? schema["x-max-items"] : scalarKeyword(doc, schema, "x-max-items");
    if (cap === null || cap === undefined) continue;
    if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 0)
      fail(GenErrorCode.SCHEMA, "`x-max-items` must be a non-negative integer", file, [...path, name, "x-max-items"]);
    out[name] = cap as number;
  }
  return out;
}

/**
 * Where the slot stands in a result: `x-slot` on the result schema (a path inside it, `""`
 * for the result itself) or on the schema of one of its properties (`context` + `slot`).
 */
function slotPath(doc: SpecDocument, result: Json, path: (string | number)[]): string | null {
  const own = (node: Json | undefined): string | null => {
    let current = deref(doc.doc, node);
    for (let i = 0; i < 16 && isObject(current); i++) {
      const mark = current["x-slot"];
      if (mark !== undefined) {
        if (typeof mark !== "string") return fail(GenErrorCode.SCHEMA, "`x-slot` must be a dotted path (`''` for the value itself)", doc.file, path);
        return mark;
      }
      if (Array.isArray(current.allOf) && current.allOf.length === 1) current = deref(doc.doc, current.allOf[0]);
      else return null;
    }
    return null;
  };
  const self = own(result);
  if (self !== null) return self;
  const view = objectView(doc.doc, result);
  for (const [name, prop] of Object.entries(view && isObject(view.properties) ? view.properties : {})) {
    const inner = own(prop);
    if (inner !== null) return inner === "" ? name : `${name}.${inner}`;
  }
  return null;
}

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
    pagination: pagination(doc, operation, paramsView, resultSource, path),
    slot: slotPath(doc, resultSource, resultPath),
    identity: readIdentity(operation["x-identity"], doc.file, [...path, "x-identity"]),
    filters: readFilters(operation["x-filters"], names, doc.file, [...path, "x-filters"]),
    lookup: readLookup(operation["x-lookup"], names, doc.file, [...path, "x-lookup"]),
    sums: readSums(operation["x-sums"], names, doc.file, [...path, "x-sums"]),
    maxItems: readMaxItems(doc.doc, paramsView, paramsSource, doc.file, [...request.path, "properties", "params", "properties"]),
    extensions: Object.fromEntries(Object.entries(operation).filter(([k]) => k.startsWith("x-") && !TABLE_EXTENSIONS.has(k))),
    params: paramsSource === undefined ? null : schemaPair(b, doc, paramsSource, [...request.path, "properties", "params"], `${Name}Params`),
    result: schemaPair(b, doc, resultSource, resultPath, `${Name}Result`),
    aliases: readAliases(operation["x-aliases"], doc.file, [...path, "x-aliases"]),
    registered: readRegistered(operation["x-registered"], doc.file, [...path, "x-registered"]),
    paramShape: paramShape(doc.doc, paramsView, paramsSource),
    moving: movingFields(doc, resultSource, resultPath),
    transactionAccounts: readTransactionAccounts(doc.doc, operation["x-transaction-accounts"], resultSource, doc.file, [...path, "x-transaction-accounts"]),
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
  for (const m of methods) {
    if (m.sums && !seen.has(m.sums.method)) {
      throw new GenError(GenErrorCode.SCHEMA, `\`x-sums.method\` names ${quote(m.sums.method)}, which is not a method of the spec`, {
        file: m.file,
        pointer: `${m.pointer}/x-sums/method`,
      });
    }
  }
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
