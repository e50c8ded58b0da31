import { describe, expect, it } from "vitest";
import { parseJson } from "../../../runtime/json/parse.js";
import { stringifyJson } from "../../../runtime/json/stringify.js";

describe("stringifyJson", () => {
  it("writes bigints at any place without touching the value: a __proto__ key kept, shared and frozen parts left alone", () => {
    const text = '{"a":{"__proto__":{"n":18446744073709551615},"m":[1,{"k":-9007199254740993}],"s":"x"},"b":[{"c":1}],"__proto__":2}';
    const v = parseJson(text) as Record<string, unknown>;
    const before = structuredClone(v);
    expect(stringifyJson(v)).toBe(text);
    expect(v).toStrictEqual(before);
    const shared = Object.freeze({ deep: Object.freeze([1, 2]) });
    expect(stringifyJson({ x: shared, y: 1n << 70n, z: [shared, 3n] })).toBe(`{"x":{"deep":[1,2]},"y":${1n << 70n},"z":[{"deep":[1,2]},3]}`);
  });
});
