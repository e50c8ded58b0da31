/**
 * Types: openapi-typescript renders the spec's component schemas (plus a synthetic one for
 * each inline params/result schema); ts-morph writes the per-method maps `Params<M>`,
 * `Result<M>` and `Item<M>` that client, server and runner are typed by (from structures,
 * morph.ts), appended under them. openapi-typescript's four-space layout is re-indented to two
 * (text.ts `reindentPrinted`, checked against TypeScript's formatter in test/generator/emit/format.test.ts).
 * uint64/int64 values surface as `number | bigint` (bigint above 2^53 - 1).
 */
import openapiTS, { astToString, NULL } from "openapi-typescript";
import ts from "typescript";
import { isObject, type Json, type JsonObject } from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode } from "../errors.js";
import type { SpecModel } from "../model.js";
import { SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLES } from "../normalize/index.js";
import { commentText, docLines, stringLiteral, typeKey } from "./escape.js";
import { formatTypeScript } from "./format.js";
import type { TypeAliasDeclarationStructure } from "ts-morph";
import { printStatements, type Statements, tsMorph } from "./morph.js";
import { reindentPrinted } from "./text.js";

const BIG_INTEGER = ts.factory.createUnionTypeNode([
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword),
]);

/** Annotations openapi-typescript writes into JSDoc. */
const COMMENTED = ["title", "summary", "description", "format", "default", "example", "examples"];

function forComment(value: Json): Json {
  if (typeof value === "string") return commentText(value);
  if (Array.isArray(value)) return value.map(forComment);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [commentText(k), forComment(v)]));
  return value;
}

/**
 * The schema with every annotation openapi-typescript writes into a comment passed through
 * `commentText` (it escapes `*\/` itself, but not controls, bidi overrides or lone surrogates).
 */
function commentSafe(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    let copy = value;
    if (COMMENTED.includes(key)) copy = forComment(value);
    else if (SCHEMA_MAPS.includes(key) && isObject(value)) copy = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, commentSafe(v)]));
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) copy = value.map(commentSafe);
    else if (SCHEMA_SINGLES.includes(key)) copy = Array.isArray(value) ? value.map(commentSafe) : commentSafe(value);
    Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Renders the schemas with openapi-typescript; returns TypeScript source text. */
export async function renderSchemaTypes(model: SpecModel): Promise<string> {
  const document = {
    openapi: "3.0.3",
    info: { title: model.title, version: model.version },
    paths: {},
    components: { schemas: Object.fromEntries(Object.entries(model.sourceComponents).map(([name, schema]) => [name, commentSafe(schema)])) },
  };
  try {
    const nodes = await openapiTS(document as never, {
      silent: true,
      defaultNonNullable: false,
      transform(schema) {
        if (schema.type === "integer" && (schema.format === "uint64" || schema.format === "int64")) {
          return "nullable" in schema && schema.nullable ? ts.factory.createUnionTypeNode([BIG_INTEGER, NULL]) : BIG_INTEGER;
        }
        return undefined;
      },
    });
    return astToString(nodes);
  } catch (err) {
    throw new GenError(GenErrorCode.SCHEMA, `openapi-typescript cannot render the schemas: ${(err as Error).message}`, { file: model.source });
  }
}

/** Parts of openapi-typescript's output with nothing in them for our documents (`paths: {}` is passed in). */
const EMPTY_PARTS = ["paths", "webhooks", "$defs", "operations"];

function schemaRef(typeName: string): string {
  return `components["schemas"][${stringLiteral(typeName)}]`;
}

/** openapi-typescript's declaration of a part of the document a JSON-RPC spec leaves empty. */
function emptyPart(name: string): RegExp {
  return new RegExp(`^export type ${name.replace(/\$/g, "\\$")} = Record<string, never>;\n`, "m");
}

/** The method maps as ts-morph structures, to go under the openapi-typescript output. */
export function methodTypeStatements(model: SpecModel): Statements {
  const { StructureKind } = tsMorph();
  const doc = (m: SpecModel["methods"][number]) => docLines(m.summary !== m.name ? m.summary : null);
  const paginated = model.methods.filter((m) => m.pagination);
  const alias = (name: string, type: string, docs: string[] = [], constraint?: string): TypeAliasDeclarationStructure => ({
    kind: StructureKind.TypeAlias,
    name,
    isExported: true,
    type,
    docs,
    typeParameters: constraint ? [{ name: "M", constraint }] : [],
  });
  return [
    {
      kind: StructureKind.Interface,
      name: "MethodParams",
      isExported: true,
      docs: ["The params object of each method (`undefined` for methods that take none)."],
      properties: model.methods.map((m) => ({ name: typeKey(m.name), type: m.params ? schemaRef(m.params.typeName) : "undefined", docs: doc(m) })),
    },
    {
      kind: StructureKind.Interface,
      name: "MethodResults",
      isExported: true,
      docs: ["The `result` of each method's success response."],
      properties: model.methods.map((m) => ({ name: typeKey(m.name), type: schemaRef(m.result.typeName), docs: doc(m) })),
    },
    {
      kind: StructureKind.Interface,
      name: "MethodItems",
      isExported: true,
      docs: ["The item type of each paginated method's pages."],
      properties: paginated.map((m) => ({
        name: typeKey(m.name),
        // A page is `result.value` for `{ context, value }` results, else the result itself.
        type: `NonNullable<MethodResults[${stringLiteral(m.name)}]${m.hasContext ? '["value"]' : ""}>[${stringLiteral(m.pagination!.items)}][number]`,
      })),
    },
    alias("Schemas", `components["schemas"]`),
    alias("MethodName", "keyof MethodResults", ["Every method of the spec."]),
    alias("PaginatedMethodName", "keyof MethodItems", ["Methods that return `{ items, cursor }` pages."]),
    alias("Params", "MethodParams[M]", [], "MethodName"),
    alias("Result", "MethodResults[M]", [], "MethodName"),
    alias("Item", "MethodItems[M]", [], "PaginatedMethodName"),
  ];
}

/** types.ts without its banner: the schema types with the method maps under them, formatted. */
export async function renderTypes(model: SpecModel): Promise<string> {
  let schemas = await renderSchemaTypes(model);
  // openapi-typescript declares the document's other parts; a JSON-RPC spec's are all empty.
  for (const name of EMPTY_PARTS) schemas = schemas.replace(emptyPart(name), "");
  // The printer's four-space layout re-indented by text (text.ts `reindentPrinted`, the formatter's
  // result in well under a millisecond); anything it does not expect goes through the formatter itself.
  const reindented = reindentPrinted(schemas);
  const layout = reindented ?? formatTypeScript("types.ts", schemas);
  // The method maps: ts-morph writes them, and they go under the schema types.
  return `${layout.trim()}\n\n${printStatements("types.ts", methodTypeStatements(model)).trim()}`;
}
