/**
 * The method table: one entry per method (params, pagination, documented order), plus the
 * spec's identity. Client, server and runner all read this; none of them names a method.
 */
import type { SourceFile } from "ts-morph";
import type { MethodInfo } from "../../runtime/contracts.js";
import type { SpecModel } from "../model.js";

function info(m: SpecModel["methods"][number]): MethodInfo {
  return {
    name: m.name,
    path: m.path,
    summary: m.summary,
    hasParams: m.hasParams,
    requiredParams: m.requiredParams,
    optionalParams: m.optionalParams,
    hasContext: m.hasContext,
    pagination: m.pagination,
    extensions: m.extensions,
  };
}

export function addMethodTable(file: SourceFile, model: SpecModel): void {
  file.addImportDeclaration({ moduleSpecifier: "photon-indexer-kit/runtime", namedImports: ["MethodInfo"], isTypeOnly: true });
  file.addImportDeclaration({ moduleSpecifier: "./types.js", namedImports: ["MethodName", "PaginatedMethodName"], isTypeOnly: true });
  const spec = { title: model.title, version: model.version, sha256: model.sha256, source: model.source, files: model.files };
  file.addStatements([
    "/** The spec these files were generated from. */",
    `export const spec = ${JSON.stringify(spec, null, 2)} as const;`,
    "",
    "/** Every method of the spec, by name. */",
    `export const methods: { readonly [M in MethodName]: MethodInfo & { readonly name: M } } = ${JSON.stringify(
      Object.fromEntries(model.methods.map((m) => [m.name, info(m)])),
      null,
      2,
    )};`,
    "",
    "/** Method names in spec order. */",
    `export const methodNames: readonly MethodName[] = ${JSON.stringify(model.methods.map((m) => m.name))};`,
    "",
    "/** Methods that return pages and take a cursor. */",
    `export const paginatedMethodNames: readonly PaginatedMethodName[] = ${JSON.stringify(
      model.methods.filter((m) => m.pagination).map((m) => m.name),
    )};`,
  ]);
}
