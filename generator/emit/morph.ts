/**
 * ts-morph writes the generated code: each emitter describes its file as statement structures, printed in one call
 * (`printStatements`) in one in-memory project without lib files or `formatText`.
 */
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

/** A file's statements as ts-morph structures, in order. */
export type Statements = (string | TsMorph.WriterFunction | TsMorph.StatementStructures)[];

let loaded: typeof TsMorph | undefined;

/**
 * ts-morph, loaded on first use so the method table (and `compileSpec`) does not pay for it; required,
 * not imported, since an ESM import of its CommonJS bundle makes Node scan its whole text.
 */
export function tsMorph(): typeof TsMorph {
  loaded ??= createRequire(import.meta.url)("ts-morph") as typeof TsMorph;
  return loaded;
}

let project: TsMorph.Project | undefined;

function inMemoryProject(): TsMorph.Project {
  if (project) return project;
  const { IndentationText, NewLineKind, Project, QuoteKind } = tsMorph();
  project = new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Double,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
  });
  return project;
}

/** The text ts-morph writes for a file `name` of these statements. */
export function printStatements(name: string, statements: Statements): string {
  const file = inMemoryProject().createSourceFile(name, { statements }, { overwrite: true });
  const text = file.getFullText();
  file.forget();
  return text;
}

/** `import { names } from "moduleSpecifier";` (`import type` when `typeOnly`), as a structure. */
export function importOf(moduleSpecifier: string, namedImports: readonly string[], isTypeOnly = false): TsMorph.StatementStructures {
  return { kind: tsMorph().StructureKind.ImportDeclaration, moduleSpecifier, namedImports: [...namedImports], isTypeOnly };
}
