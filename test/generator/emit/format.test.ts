/**
 * emit/text.ts and emit/format.ts: openapi-typescript's four-space output is re-indented by
 * `reindentPrinted`, which must give exactly what TypeScript's formatter gives (the formatter stays
 * as its fallback and as the oracle here). ts-morph writes the rest (morph.ts, tested below).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatTypeScript } from "../../../generator/emit/format.js";
import { importOf, printStatements } from "../../../generator/emit/morph.js";
import { reindentPrinted } from "../../../generator/emit/text.js";
import { StructureKind } from "ts-morph";
import { renderSchemaTypes } from "../../../generator/emit/types.js";
import { loadSpec } from "../../../generator/load.js";
import { buildModel } from "../../../generator/model.js";
import { extendedSpec, ourSpec, root, upstream } from "../../helpers/paths.js";

const specs = {
  "photon-indexer.yaml": ourSpec,
  "ledger-extended.yaml": extendedSpec,
  "0.50.0 (ours)": join(root, "spec", "versions", "0.50.0.yaml"),
  "upstream 0.44.0 (a folder)": join(upstream, "0.44.0"),
  "upstream 0.51.2": join(upstream, "0.51.2", "api.yaml"),
};

describe("reindentPrinted", () => {
  for (const [name, file] of Object.entries(specs)) {
    it(`re-indents openapi-typescript's output of ${name} exactly as TypeScript's formatter does`, async () => {
      const printed = await renderSchemaTypes(buildModel(await loadSpec(file)));
      expect(printed).toMatch(/^ {8}\S/m); // nested four-space levels are there to re-indent
      const ours = reindentPrinted(printed);
      expect(ours).not.toBeNull();
      expect(ours).toBe(formatTypeScript("types.ts", printed));
    });
  }

  it("moves a block comment's lines by as much as its first line, keeping their inner layout", () => {
    const printed = ["export interface A {", "    /**", "     * @example {", '     *       "a": 1', "     *     }", "     */", "    a: number;", "}", ""].join(
      "\n",
    );
    const expected = ["export interface A {", "  /**", "   * @example {", '   *       "a": 1', "   *     }", "   */", "  a: number;", "}", ""].join("\n");
    expect(reindentPrinted(printed)).toBe(expected);
    expect(formatTypeScript("a.ts", printed)).toBe(expected);
  });

  it("declines what it does not expect, for the formatter to handle", () => {
    expect(reindentPrinted("export interface A {\n\ta: number;\n}\n")).toBeNull();
    expect(reindentPrinted("export interface A {\n   a: number;\n}\n")).toBeNull();
    expect(reindentPrinted('export interface A {\n    a: "/*";\n}\n')).toBeNull();
  });
});

describe("printStatements", () => {
  it("writes a file from structures in one call: two-space indent, double quotes, JSDoc blocks", () => {
    const text = printStatements("a.ts", [
      importOf("m", ["a", "b"], true),
      {
        kind: StructureKind.Interface,
        name: "A",
        isExported: true,
        docs: ["One line."],
        properties: [{ name: "x", type: "number", docs: ["a\n\nb"] }],
      },
      { kind: StructureKind.Function, name: "f", parameters: [{ name: "s", type: "string", initializer: '"q"' }], statements: ["return s;"] },
    ]);
    expect(text).toBe(
      [
        'import type { a, b } from "m";',
        "",
        "/** One line. */",
        "export interface A {",
        "  /**",
        "   * a",
        "   *",
        "   * b",
        "   */",
        "  x: number;",
        "}",
        "",
        'function f(s: string = "q") {',
        "  return s;",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("gives the same text for the same structures, whatever was printed before in the reused project", () => {
    const statements = () => [importOf("m", ["a"]), "export const b = a;"];
    const first = printStatements("b.ts", statements());
    expect(first).toBe('import { a } from "m";\nexport const b = a;\n');
    // Another file, and the same name with other statements, in between: nothing of them stays.
    expect(printStatements("c.ts", [importOf("n", ["c", "d"], true), "export type E = c | d;"])).toContain('import type { c, d } from "n";');
    expect(printStatements("b.ts", ["export const other = 1;"])).toBe("export const other = 1;\n");
    expect(printStatements("b.ts", statements())).toBe(first);
  });
});
