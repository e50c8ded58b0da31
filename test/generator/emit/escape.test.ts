/**
 * emit/escape.ts, one sink at a time, for what test/generator/names.test.ts (hostile specs end
 * to end, and a first pass over each helper) leaves open: the identifier guard, string
 * literals, keys, the literal layout, doc paragraphs, markdown fences and template refusal.
 */
import { describe, expect, it } from "vitest";
import {
  commentLine,
  commentText,
  compileTemplate,
  docLines,
  identifier,
  isIdentifier,
  literal,
  mdCode,
  mdText,
  schemaId,
  stringLiteral,
  typeKey,
} from "../../../generator/emit/escape.js";
import { GenError, GenErrorCode } from "../../../generator/errors.js";
import { PhotonError } from "../../../runtime/errors.js";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("identifier", () => {
  it.each(["getA", "_x", "$y", "a1", "A_b$"])("passes %j through", (name) => {
    expect(identifier(name)).toBe(name);
    expect(isIdentifier(name)).toBe(true);
  });

  it.each(["", "1a", "a-b", "a b", "a.b", "é", "a*/b"])("refuses %j, a generator bug with the INTERNAL code", (name) => {
    const err = thrown(() => identifier(name));
    expect(err).toBeInstanceOf(PhotonError);
    expect((err as PhotonError).code).toBe(GenErrorCode.INTERNAL);
    expect((err as Error).message).toContain(JSON.stringify(name));
    expect(isIdentifier(name)).toBe(false);
  });

  it.each(["class", "await", "yield", "null", "true", "enum", "interface", "let", "static"])(
    "refuses the reserved word %j as a binding, though isIdentifier accepts it",
    (word) => {
      expect(() => identifier(word)).toThrow(/is not a safe identifier/);
      expect(isIdentifier(word)).toBe(true);
    },
  );
});

describe("stringLiteral and typeKey", () => {
  it("writes a double-quoted literal with quotes, backslashes, controls, U+2028/9 and lone surrogates escaped", () => {
    expect(stringLiteral('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(stringLiteral("\n\0")).toBe('"\\n\\u0000"');
    expect(stringLiteral("\u2028\u2029")).toBe('"\\u2028\\u2029"');
    expect(stringLiteral("\ud800")).toBe('"\\ud800"');
    for (const s of ['a"b', "\u2028", "x\ud800y", "`${x}`"]) expect(JSON.parse(stringLiteral(s))).toBe(s);
  });

  // A type member may be named __proto__ bare: it is a type, not an object literal.
  it.each([
    ["getA", "getA"],
    ["$x", "$x"],
    ["__proto__", "__proto__"],
    ["a b", '"a b"'],
    ["x-note", '"x-note"'],
    ["1st", '"1st"'],
  ])("typeKey(%j) is %s: an identifier bare, anything else quoted", (name, key) => {
    expect(typeKey(name)).toBe(key);
  });
});

describe("literal", () => {
  it("writes a short list of primitives on one line", () => {
    expect(literal([1, "a", null, true])).toBe('[1, "a", null, true]');
    expect(literal([])).toBe("[]");
    expect(literal({})).toBe("{}");
  });

  it("breaks a list longer than 100 characters, or one holding objects, one entry per line", () => {
    const long = ["x".repeat(60), "y".repeat(60)];
    expect(literal(long)).toBe(`[\n  "${long[0]}",\n  "${long[1]}",\n]`);
    expect(literal([{ a: 1 }])).toBe("[\n  {\n    a: 1,\n  },\n]");
  });

  it("indents nested objects, drops undefined members and writes non-finite numbers as null", () => {
    expect(literal({ a: { b: [1, 2] }, skipped: undefined, n: Number.NaN, i: Number.POSITIVE_INFINITY })).toBe(
      "{\n  a: {\n    b: [1, 2],\n  },\n  n: null,\n  i: null,\n}",
    );
  });

  it("quotes keys that are not identifiers", () => {
    expect(literal({ "x-pagination": 1, ok: 2 })).toBe('{\n  "x-pagination": 1,\n  ok: 2,\n}');
  });

  it.each([[1n], [() => 1], [Symbol("s")]])("refuses a value JSON has no literal for (%s) as an internal error", (value) => {
    const err = thrown(() => literal({ a: value }));
    expect((err as PhotonError).code).toBe(GenErrorCode.INTERNAL);
    expect((err as Error).message).toMatch(/cannot write a (bigint|function|symbol) as a literal/);
  });
});

describe("comments", () => {
  it("commentText turns every line break into \\n, escapes bidi controls and DEL, and keeps tabs", () => {
    expect(commentText("a\rb\r\nc\u2029d")).toBe("a\nb\nc\nd");
    expect(commentText("\t\u2066\u2069\x7f\ufeff")).toBe("\t\\u2066\\u2069\\u007f\\ufeff");
    expect(commentText("**/ */ */")).toBe("**\\/ *\\/ *\\/");
  });

  it("commentLine keeps a comment on one line", () => {
    expect(commentLine("a\r\nb\u2028c")).toBe("a\\nb\\nc");
    expect(commentLine("a\r\nb")).not.toMatch(/[\r\n]/);
  });

  it("docLines keeps the non-blank paragraphs, joined by a blank line, escaped", () => {
    expect(docLines(null, "", "  ", undefined)).toEqual([]);
    expect(docLines("summary", null, "description */")).toEqual(["summary\n\ndescription *\\/"]);
    expect(docLines("only")).toEqual(["only"]);
  });
});

describe("schema ids and markdown", () => {
  it("schemaId writes every character outside [A-Za-z0-9_-] as %uXXXX, keeping prefix and suffix", () => {
    expect(schemaId("method-", "get_A-1", "-params.json")).toBe("method-get_A-1-params.json");
    expect(schemaId("p-", "a.b é", ".json")).toBe("p-a%u002eb%u0020%u00e9.json");
    expect(schemaId("", "\n", "")).toBe("%u000a");
  });

  it.each([
    ["plain", "`plain`"],
    ["a``b", "```a``b```"],
    ["`x`", "`` `x` ``"],
    ["", "`  `"],
    ["a\u202eb", "`a\\u202eb`"],
  ])("mdCode(%j) is %s: a fence longer than any backtick run, padded where the body starts or ends with one", (text, code) => {
    expect(mdCode(text)).toBe(code);
  });

  it("mdText joins lines with spaces and escapes markup and controls", () => {
    expect(mdText("a\r\nb\nc")).toBe("a b c");
    expect(mdText("# h ~x~ !&")).toBe("\\# h \\~x\\~ \\!\\&");
    // The \uXXXX written for a control keeps its backslash escaped, so markdown shows it as text.
    expect(mdText("a\u202eb\0")).toBe("a\\\\u202eb\\\\u0000");
  });
});

describe("compileTemplate", () => {
  it("refuses a bare value with a coded error naming the template", () => {
    const err = thrown(() => compileTemplate("banner.hbs", "{{commentLine title}} {{version}}"));
    expect(err).toBeInstanceOf(GenError);
    expect((err as GenError).code).toBe(GenErrorCode.TEMPLATE);
    expect((err as GenError).file).toBe("banner.hbs");
    expect((err as Error).message).toContain("writes version without an escaping helper (commentLine, mdCode, mdText)");
  });

  it("refuses a helper given more than one value, and a raw value inside an {{#if}} or its {{else}}", () => {
    expect(() => compileTemplate("t.hbs", "{{mdText a b}}")).toThrow(/writes mdText/);
    expect(() => compileTemplate("t.hbs", "{{#if a}}{{mdText a}}{{else}}{{b}}{{/if}}")).toThrow(/writes b /);
    expect(() => compileTemplate("t.hbs", "{{#if a}}{{c}}{{/if}}")).toThrow(/writes c /);
  });

  it("runs each helper on the value, and writes nothing HTML-escaped", () => {
    const render = compileTemplate("t.hbs", "{{mdCode name}} | {{mdText title}} | {{commentLine note}}");
    expect(render({ name: "a|b", title: "<b>&", note: "x\ny" })).toBe("`a\\|b` | \\<b\\>\\& | x\\ny");
    expect(compileTemplate("t.hbs", "{{#each xs}}{{mdCode this}},{{/each}}")({ xs: ["a", "b"] })).toBe("`a`,`b`,");
  });
});

describe("compileTemplate: a missing value", () => {
  it("is refused instead of rendering empty (a misspelled name in a helper's argument)", () => {
    const render = compileTemplate("t.hbs", "[{{mdText titel}}]");
    expect(() => render({ title: "T" })).toThrow(/template value passed to mdText is missing/);
    expect(compileTemplate("t.hbs", "[{{mdText title}}]")({ title: "T" })).toBe("[T]");
  });
});
