/**
 * No file of the unit or integration project, nor a test-folder module it imports, spawns a
 * process, runs `npm pack`, drives a browser or runs the whole case corpus: those are e2e.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import picomatch from "picomatch";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.js";
import { root } from "./helpers/paths.js";

/** Modules whose import means a child process or a browser. */
const SPAWNING = /^(node:)?(child_process|cluster)$|^(execa|tinyexec|cross-spawn|nano-spawn)$|^(playwright|puppeteer)/;
/** CLI commands that send the corpus to a target, and the flags that select part of it or send nothing. */
const CORPUS_COMMANDS = new Set(["run", "diff", "record"]);
const SELECTING = new Set(["--case", "--method", "--shard", "--list", "--help"]);
/** A comment above a command line the target or its inputs refuse before any case is sent. */
const REFUSED = /no case runs/;
/** Text without these cannot offend: parsing is skipped. */
const SUSPECT = /child_process|cluster|execa|tinyexec|spawn|playwright|puppeteer|chromium|npm pack|runSuite|"--url"/i;
/** Test titles may name what e2e files do; only code counts. */
const TITLED = /^(it|test|describe|bench)(\.\w+)*$/;

/** What a module does that a unit test must not, one line each (`line N: …`). */
function offences(text: string, file = "x.ts"): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const imported = new Set<string>();
  const out: string[] = [];
  const at = (node: ts.Node, what: string) => out.push(`line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const literal = (node: ts.Node | undefined): string | undefined =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
  const titleOf = (node: ts.Node): boolean =>
    ts.isCallExpression(node.parent) && node.parent.arguments[0] === node && TITLED.test(node.parent.expression.getText(source).replace(/\(.*$/s, ""));

  /** Whether a comment above the node, or above a node it is part of up to its statement, says no case runs. */
  const refused = (node: ts.Node): boolean => {
    for (let n: ts.Node | undefined = node; n !== undefined && !ts.isSourceFile(n); n = ts.isStatement(n) ? undefined : n.parent) {
      const comments = ts.getLeadingCommentRanges(source.text, n.getFullStart()) ?? [];
      if (comments.some((c) => REFUSED.test(source.text.slice(c.pos, c.end)))) return true;
    }
    return false;
  };
  const visit = (node: ts.Node): void => {
    let spec: string | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) spec = literal(node.moduleSpecifier);
    if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || node.expression.getText(source) === "require"))
      spec = literal(node.arguments[0]);
    if (spec !== undefined && SPAWNING.test(spec)) at(node, `imports ${spec}`);
    if (ts.isImportSpecifier(node)) imported.add(node.name.text);

    const text = literal(node);
    if (text !== undefined && !titleOf(node)) {
      if (/\bchromium\b/i.test(text)) at(node, "drives a browser (chromium)");
      if (/\bnpm pack\b/.test(text)) at(node, "runs npm pack");
    }
    if (ts.isCallExpression(node) && /(^|\.)runSuite$/.test(node.expression.getText(source))) {
      const options = node.arguments[0];
      if (options && ts.isObjectLiteralExpression(options) && !options.properties.some(ts.isSpreadAssignment)) {
        const names = options.properties.map((p) => p.name?.getText(source));
        const dir = options.properties.find((p) => p.name?.getText(source) === "casesDir");
        const corpus =
          dir !== undefined &&
          ((ts.isShorthandPropertyAssignment(dir) && imported.has("casesDir")) ||
            (ts.isPropertyAssignment(dir) && /"conformance", "cases"\)$|^casesDir$/.test(dir.initializer.getText(source))));
        if (corpus && !names.includes("methods") && !names.includes("caseGlobs"))
          at(node, "runs the whole case corpus (runSuite with neither methods nor caseGlobs)");
      }
    }
    if (ts.isArrayLiteralExpression(node) && !node.elements.some(ts.isSpreadElement)) {
      const args = node.elements.map((e) => literal(e));
      const url = args.indexOf("--url");
      const target = node.elements[url + 1];
      const live = url >= 0 && target !== undefined && literal(target) === undefined && !/^[A-Z_]+$/.test(target.getText(source));
      if (CORPUS_COMMANDS.has(args[0] ?? "") && live && !args.some((a) => a !== undefined && SELECTING.has(a)) && !refused(node))
        at(node, `runs the whole case corpus (${args[0]} --url with no --case, --method or --shard)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const rel = (file: string) => relative(root, file);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "fixtures") return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Each test-folder module's offences and the test-folder modules it imports. */
const modules = new Map<string, { offences: string[]; imports: string[] }>();
function moduleAt(file: string): { offences: string[]; imports: string[] } {
  let known = modules.get(file);
  if (known === undefined) {
    const text = readFileSync(file, "utf8");
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.filter(({ fileName }) => fileName.startsWith("."))
      .map(({ fileName }) => join(dirname(file), fileName).replace(/\.(m?)js$/, ".$1ts"))
      .filter((target) => target.startsWith(join(root, "test")) && statSync(target, { throwIfNoEntry: false })?.isFile());
    known = { offences: SUSPECT.test(text) ? offences(text, file) : [], imports };
    modules.set(file, known);
  }
  return known;
}

/** The test-folder modules a file imports, itself first, transitively. */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const target of moduleAt(file).imports) reach(target, seen);
  return seen;
}

const projects = (config.test?.projects ?? []) as { test?: { name?: string; include?: string[]; exclude?: string[] } }[];
const project = (name: string) => projects.find((p) => p.test?.name === name)?.test ?? { include: [], exclude: [] };

describe("the unit and integration projects", () => {
  const e2e = picomatch(project("e2e").include ?? []);
  const files = filesUnder(join(root, "test")).filter((f) => rel(f).endsWith(".test.ts") && !e2e(rel(f)));
  // This file's examples of offences are strings, not what it does.
  const self = rel(import.meta.filename);

  it("hold every test file but the *.e2e.test.ts ones, unit all but the integration ones", () => {
    expect(project("unit").exclude).toEqual(["test/**/*.integration.test.ts", "test/**/*.e2e.test.ts"]);
    expect(project("integration").include).toEqual(["test/**/*.integration.test.ts"]);
    expect(files.length).toBeGreaterThan(100);
  });

  it("spawns no process, packs nothing, drives no browser and runs no whole corpus (those files are *.e2e.test.ts)", () => {
    const found: string[] = [];
    for (const file of files.filter((f) => rel(f) !== self))
      for (const module of reach(file))
        for (const offence of moduleAt(module).offences) found.push(`${rel(file)}${module === file ? "" : ` → ${rel(module)}`} ${offence}`);
    expect(found).toEqual([]);
  });
});

describe("offences", () => {
  it("names imports of child_process, browsers and process runners", () => {
    expect(offences('import { spawn } from "node:child_process";\nconst p = await import("playwright");')).toEqual([
      "line 1: imports node:child_process",
      "line 2: imports playwright",
    ]);
  });

  it("names npm pack and chromium in code, not in test titles", () => {
    expect(offences('it("after `npm pack` in chromium", () => run("npm pack", "chromium"));')).toEqual([
      "line 1: runs npm pack",
      "line 1: drives a browser (chromium)",
    ]);
  });

  it("names runSuite over the whole corpus, not over a selection or another directory", () => {
    const text = [
      'import { casesDir } from "photon-indexer-kit/conformance";',
      "await runSuite({ url, casesDir, fixtures });",
      'await runSuite({ url, casesDir: join(root, "conformance", "cases"), fixtures, concurrency: 4 });',
      "await runSuite({ url, casesDir, fixtures, caseGlobs: ['slot/*'] });",
      "await runSuite({ url, casesDir: corpus, fixtures });",
    ].join("\n");
    expect(offences(text)).toEqual([
      "line 2: runs the whole case corpus (runSuite with neither methods nor caseGlobs)",
      "line 3: runs the whole case corpus (runSuite with neither methods nor caseGlobs)",
    ]);
  });

  it("names a CLI run against a live target with no selection, not one said to be refused before it sends", () => {
    const text = [
      'captured(main, ["run", "--url", indexer().url, "--reporter", "json"]);',
      'captured(main, ["diff", "--url", a.url, "--against", b.url, "--case", "account/*"]);',
      'captured(main, ["run", "--url", "http://127.0.0.1:1/"]);',
      'captured(main, ["run", "--url", UNREACHABLE]);',
      'captured(main, ["run", "--url", server.url, "--list"]);',
      "for (const args of [",
      "  // The target answers HTML: refused, no case runs.",
      '  ["run", "--url", target.url],',
      "]) await run(...args);",
    ].join("\n");
    expect(offences(text)).toEqual(["line 1: runs the whole case corpus (run --url with no --case, --method or --shard)"]);
  });
});
