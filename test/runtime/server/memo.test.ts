import { describe, expect, it } from "vitest";
import { ResultMemo } from "../../../runtime/server/memo.js";

describe("ResultMemo", () => {
  it("keeps results by key and encodes each once", () => {
    const memo = new ResultMemo(10, 1000);
    memo.set("k", "[1]");
    expect(memo.get("k")).toBe("[1]");
    expect(memo.bytes("k")).toBe(memo.bytes("k"));
    expect(memo.bytes("other")).toBeUndefined();
  });

  it("drops the oldest entries past either bound and never keeps a result over the size bound", () => {
    const memo = new ResultMemo(2, 1000);
    memo.set("a", "1");
    memo.set("b", "2");
    memo.set("c", "3");
    expect([memo.get("a"), memo.get("b"), memo.get("c")]).toEqual([undefined, "2", "3"]);
    const small = new ResultMemo(10, 4);
    small.set("k", "12345");
    expect(small.get("k")).toBeUndefined();
  });
});
