/**
 * Tiny JSON-RPC-over-OpenAPI specs written inline by a test, loaded and modelled as the
 * generator does (load → normalise → model), and a ts-morph file for an emitter to write into.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFile } from "ts-morph";
import type { Json, JsonObject } from "@photon-indexer-kit/runtime";
import { loadSpec } from "../../generator/load.js";
import { buildModel, type SpecModel } from "../../generator/model.js";

export interface MethodSpec {
  readonly name: string;
  /** The params schema; absent: the method takes no params. */
  readonly params?: Json;
  /** Whether the envelope lists `params` as required (default: when params are given). */
  readonly paramsRequired?: boolean;
  readonly result?: Json;
  readonly summary?: string;
  readonly description?: string;
  /** Extra keys of the operation (`x-pagination`, …). */
  readonly operation?: JsonObject;
}

const object = (properties: Record<string, Json>, required: string[] = []): Json => ({ type: "object", required, properties });

/** `{cursor, items}` params and `{context, value: {items, cursor}}` result: a method the model infers as paginated. */
export function paginated(name: string, item: Json = { type: "string" }): MethodSpec {
  return {
    name,
    params: object({ owner: { type: "string" }, cursor: { type: "string", nullable: true }, limit: { type: "integer", nullable: true } }, ["owner"]),
    result: object(
      { context: object({ slot: { type: "integer" } }), value: object({ items: { type: "array", items: item }, cursor: { type: "string", nullable: true } }) },
      ["context", "value"],
    ),
  };
}

/** An OpenAPI 3.0.3 document with one `/name` path per method (0.50.0 style: the result inside a 200 envelope). */
export function specOf(methods: readonly MethodSpec[], extra: { title?: string; version?: string; schemas?: Record<string, Json> } = {}): JsonObject {
  const paths: Record<string, Json> = {};
  for (const m of methods) {
    const properties: Record<string, Json> = { jsonrpc: { type: "string", enum: ["2.0"] }, id: { type: "string" }, method: { type: "string", enum: [m.name] } };
    if (m.params !== undefined) properties.params = m.params;
    const required = ["jsonrpc", "id", "method", ...(m.params !== undefined && m.paramsRequired !== false ? ["params"] : [])];
    paths[`/${m.name}`] = {
      post: {
        ...(m.summary !== undefined ? { summary: m.summary } : {}),
        ...(m.description !== undefined ? { description: m.description } : {}),
        ...m.operation,
        requestBody: { content: { "application/json": { schema: { type: "object", required, properties } } } },
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": { schema: object({ jsonrpc: { type: "string" }, id: { type: "string" }, result: m.result ?? { type: "string" } }) },
            },
          },
        },
      },
    };
  }
  return { openapi: "3.0.3", info: { title: extra.title ?? "Tiny", version: extra.version ?? "1.0.0" }, paths, components: { schemas: extra.schemas ?? {} } };
}

/** Writes `doc` to a fresh temporary file (JSON, so `__proto__` keys survive as text) and returns its path. */
export function writeSpec(doc: Json | string): string {
  const dir = mkdtempSync(join(tmpdir(), "photon-spec-"));
  const file = join(dir, "spec.json");
  writeFileSync(file, typeof doc === "string" ? doc : JSON.stringify(doc));
  return file;
}

/** Loads and models a spec document (a value, or JSON text), removing the temporary file afterwards. */
export async function modelOf(doc: Json | string): Promise<SpecModel> {
  const path = writeSpec(doc);
  try {
    return buildModel(await loadSpec(path));
  } finally {
    rmSync(join(path, ".."), { recursive: true, force: true });
  }
}

/** An empty in-memory ts-morph file set up as generator/emit/index.ts sets up its project. */
export function emptySourceFile(name: string, text = ""): SourceFile {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Double,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
  });
  return project.createSourceFile(name, text);
}
