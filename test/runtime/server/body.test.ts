import { describe, expect, it } from "vitest";
import { boundedNumbers, MAX_NUMBER_CHARS, NOT_JSON_200, NOT_JSON_400, parseBody } from "../../../runtime/server/body.js";

describe("request body parsing", () => {
  it("is HTTP 400 unless the first non-blank byte is { or [", () => {
    for (const text of ["", "  ", "null", "1", '"x"']) expect(parseBody(Buffer.from(text))).toBe(NOT_JSON_400);
  });

  it("is HTTP 200 -32700 for text that starts like JSON but is not, or is not UTF-8", () => {
    expect(parseBody(Buffer.from("{oops"))).toBe(NOT_JSON_200);
    expect(parseBody(Buffer.from([0x7b, 0xff, 0x7d]))).toBe(NOT_JSON_200);
  });

  it("tells a batch from a single request", () => {
    expect(parseBody(Buffer.from(' {"a":1}'))).toEqual({ value: { a: 1 }, batch: false });
    expect(parseBody(Buffer.from("[1]"))).toMatchObject({ batch: true });
  });

  it("replaces number literals longer than MAX_NUMBER_CHARS, outside strings, by 2^64 with their sign", () => {
    const long = "1".repeat(MAX_NUMBER_CHARS + 1);
    expect(boundedNumbers(`{"a":${long},"b":-${long},"s":"${long}"}`)).toBe(`{"a":18446744073709551616,"b":-18446744073709551616,"s":"${long}"}`);
    expect(() => boundedNumbers(`{"a":1${"e".repeat(MAX_NUMBER_CHARS)}}`)).toThrow(SyntaxError);
    const short = '{"a":12345}';
    expect(boundedNumbers(short)).toBe(short);
  });
});
