/**
 * The method table: one entry per method (params, pagination, documented order, and the
 * facts the runner and the reference read instead of restating the spec: where the slot is,
 * the item identity, filters, lookups, sums, list caps), plus the spec's identity. Client,
 * server and runner all read this; none of them names a method.
 */
import type { MethodInfo } from "@photon-indexer-kit/runtime";
import type { SpecModel } from "../model.js";
import { literal } from "./escape.js";
import { RUNTIME_PACKAGE, type RuntimeModule } from "./runtime-package.js";
import { importOf, printStatements, type Statements } from "./morph.js";

/** One method's table entry, as the method table holds it: pure, shared by the emitter and `compileSpec` (generator/compile.ts). */
export type MethodEntry = MethodInfo & { readonly aliases: readonly string[]; readonly registered: boolean };

/** The table entry of one method of the model (the emitter writes it as a literal; `compileSpec` keeps it in memory). */
export function methodEntry(m: SpecModel["methods"][number]): MethodEntry {
  return {
    name: m.name,
    path: m.path,
    summary: m.summary,
    hasParams: m.hasParams,
    requiredParams: m.requiredParams,
    optionalParams: m.optionalParams,
    hasContext: m.hasContext,
    pagination: m.pagination,
    slot: m.slot,
    identity: m.identity,
    filters: m.filters,
    lookup: m.lookup,
    sums: m.sums,
    maxItems: m.maxItems,
    extensions: m.extensions,
    aliases: m.aliases,
    registered: m.registered,
    paramShape: m.paramShape,
    moving: m.moving,
    transactionAccounts: m.transactionAccounts,
  };
}

/** methods.ts without its banner. */
export function renderMethodTable(model: SpecModel, runtime: RuntimeModule = RUNTIME_PACKAGE): string {
  return printStatements("methods.ts", methodTableStatements(model, runtime));
}

/** methods.ts's statements for ts-morph: the imports, then the table's literals (escape.ts `literal`) from one writer. */
export function methodTableStatements(model: SpecModel, runtime: RuntimeModule = RUNTIME_PACKAGE): Statements {
  const spec = { title: model.title, version: model.version, sha256: model.sha256, source: model.source, files: model.files };
  const paginated = model.methods.filter((m) => m.pagination).map((m) => m.name);
  return [
    importOf(runtime, ["MethodInfo"], true),
    importOf("./types.js", ["MethodName", "PaginatedMethodName"], true),
    (writer) => {
      writer.writeLine("/** The spec these files were generated from. */");
      writer.writeLine(`export const spec = ${literal(spec)} as const;`).blankLine();
      writer.writeLine("/** Every method of the spec, by name. */");
      writer
        .writeLine(
          `export const methods: { readonly [M in MethodName]: MethodInfo & { readonly name: M; readonly aliases: readonly string[]; readonly registered: boolean } } = ${literal(Object.fromEntries(model.methods.map((m) => [m.name, methodEntry(m)])))};`,
        )
        .blankLine();
      writer.writeLine("/** Other names the server answers a method under (`x-aliases`), each with the method's validators and handler: alias → method. */");
      writer
        .writeLine(
          `export const methodAliases: Readonly<Record<string, MethodName>> = ${literal(Object.fromEntries(model.methods.flatMap((m) => m.aliases.map((a) => [a, m.name]))))};`,
        )
        .blankLine();
      writer.writeLine("/** Method names in spec order. */");
      writer.writeLine(`export const methodNames: readonly MethodName[] = ${literal(model.methods.map((m) => m.name))};`).blankLine();
      writer.writeLine("/** Methods that return pages and take a cursor. */");
      writer.writeLine(`export const paginatedMethodNames: readonly PaginatedMethodName[] = ${literal(paginated)};`);
    },
  ];
}
