import { describe, expect, it } from "vitest";
import { isJsonContentType } from "../../../runtime/server/http.js";

describe("HTTP surface", () => {
  it("accepts the three JSON content types jsonrpsee does, case-insensitively, and nothing else", () => {
    for (const t of ["application/json", "Application/JSON; charset=UTF-8", "application/json;charset=utf-8"]) expect(isJsonContentType(t)).toBe(true);
    for (const t of [undefined, "", "text/plain", "application/json; charset=latin1", "application/json ", "application/jsonx"])
      expect(isJsonContentType(t)).toBe(false);
  });
});
