/**
 * Every `throw` in runtime/, generator/, reference/ and conformance/ throws a coded PhotonError or
 * RpcError (or rethrows) and every error class extends one; read with the checker, so that
 * `throw fail(…)` is judged by what fail returns.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "./helpers/paths.js";

const AREAS = /^(runtime|generator|reference|conformance)\//;

/** Places not held to the rule, each with why. Paths are prefixes relative to the repository. */
const ALLOWED_PATHS: readonly { path: string; why: string }[] = [
  {
    path: "runtime/json/parse.ts",
    why: "JsonSyntaxError keeps JSON.parse's contract (a SyntaxError, which callers test for); NotJson is a sentinel thrown and caught within one function",
  },
];

/** Classes thrown although they are not coded, each with why. */
const ALLOWED_CLASSES: Readonly<Record<string, string>> = {
  InvalidArgumentError:
    "commander's contract for option parsers (commander catches it by its own code; conformance/exit.ts maps it to 2), and undici's own class for a URL it cannot send, thrown where undici would so that runtime/transport/failures.ts maps both alike (INVALID_OPTIONS)",
  JsonSyntaxError:
    "JSON.parse's contract (see runtime/json/parse.ts): the listener's body parser throws it for text that is not JSON and turns it into -32700 in the same function",
};

const allowedPath = (file: string) => ALLOWED_PATHS.some((a) => file.startsWith(a.path));

function program(): ts.Program {
  // tsconfig.test.json: runtime/ sources in the program, and `@photon-indexer-kit/runtime` resolved to them.
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.test.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error("tsconfig.test.json cannot be read");
  return ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
}

const prog = program();
const checker = prog.getTypeChecker();
const sources = prog.getSourceFiles().filter((sf) => !sf.isDeclarationFile && AREAS.test(relative(root, sf.fileName)));

function classSymbol(file: string, name: string): ts.Symbol {
  const sf = prog.getSourceFile(join(root, file))!;
  const symbol = checker.getSymbolAtLocation(sf)?.exports?.get(ts.escapeLeadingUnderscores(name));
  if (!symbol) throw new Error(`${file} exports no ${name}`);
  return symbol;
}

const BASES = new Set([classSymbol("runtime/errors.ts", "PhotonError"), classSymbol("runtime/errors.ts", "RpcError")]);

/** Whether a class type is, or extends, PhotonError or RpcError (by declaration, not by shape). */
function extendsBase(type: ts.Type): boolean {
  const symbol = type.getSymbol();
  if (symbol && BASES.has(symbol)) return true;
  if (!(type.flags & ts.TypeFlags.Object) || !((type as ts.ObjectType).objectFlags & (ts.ObjectFlags.Class | ts.ObjectFlags.Reference))) return false;
  const target = (type as ts.TypeReference).target ?? type;
  return (checker.getBaseTypes(target as ts.InterfaceType) ?? []).some(extendsBase);
}

function coded(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.every(coded);
  if (type.isIntersection()) return type.types.some(coded);
  if (type.flags & ts.TypeFlags.Never) return true;
  return extendsBase(type);
}

/** `throw err` of a value the code caught (a catch clause variable or a callback's parameter): passes it on. */
function isRethrow(expr: ts.Expression): boolean {
  // `throw signal.reason`: an abort propagates whatever reason the caller aborted with.
  if (ts.isPropertyAccessExpression(expr) && expr.name.text === "reason" && checker.typeToString(checker.getTypeAtLocation(expr.expression)) === "AbortSignal")
    return true;
  if (!ts.isIdentifier(expr)) return false;
  const decl = checker.getSymbolAtLocation(expr)?.valueDeclaration;
  return decl !== undefined && (ts.isCatchClause(decl.parent) || ts.isParameter(decl));
}

const where = (sf: ts.SourceFile, node: ts.Node) => `${relative(root, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;

describe("every thrown error in src has a code", () => {
  it("no `throw new Error(` (or TypeError, RangeError, SyntaxError) outside the allowed places", () => {
    const found: string[] = [];
    for (const sf of sources) {
      const file = relative(root, sf.fileName);
      if (allowedPath(file)) continue;
      readFileSync(sf.fileName, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/\bthrow new (Error|TypeError|RangeError|SyntaxError|ReferenceError)\(/.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("each throw throws a PhotonError or RpcError, or rethrows what it caught", () => {
    const found: string[] = [];
    for (const sf of sources) {
      if (allowedPath(relative(root, sf.fileName))) continue;
      const visit = (node: ts.Node): void => {
        if (ts.isThrowStatement(node) && !isRethrow(node.expression)) {
          const type = checker.getTypeAtLocation(node.expression);
          const name = checker.typeToString(type);
          if (!coded(type) && !ALLOWED_CLASSES[name]) found.push(`${where(sf, node)}: throws ${name}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
    expect(found).toEqual([]);
  });

  it("every error class extends PhotonError or RpcError", () => {
    const found: string[] = [];
    const errorSymbol = checker.resolveName("Error", undefined, ts.SymbolFlags.Value, false);
    const isError = (type: ts.Type): boolean =>
      type.getSymbol()?.getName() === "Error" ||
      (!!(type.flags & ts.TypeFlags.Object) && (checker.getBaseTypes(((type as ts.TypeReference).target ?? type) as ts.InterfaceType) ?? []).some(isError));
    expect(errorSymbol).toBeDefined();
    for (const sf of sources) {
      if (allowedPath(relative(root, sf.fileName))) continue;
      const visit = (node: ts.Node): void => {
        if (ts.isClassDeclaration(node) && node.name) {
          const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(node.name)!);
          if (isError(type) && !extendsBase(type)) found.push(`${where(sf, node)}: class ${node.name.text}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
    expect(found).toEqual([]);
  });

  it("the scan sees the four areas", () => {
    const areas = new Set(sources.map((sf) => relative(root, sf.fileName).split("/")[0]));
    expect([...areas].sort()).toEqual(["conformance", "generator", "reference", "runtime"]);
  });
});
