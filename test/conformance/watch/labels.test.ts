/** Label values a target cannot multiply. */
import { describe, expect, it } from "vitest";
import { BoundedLabel, OTHER } from "../../../conformance/watch/labels.js";

describe("BoundedLabel", () => {
  it("keeps the known values and nothing else when given no cap", () => {
    const label = new BoundedLabel(["getIndexerSlot"]);
    expect(label.of("getIndexerSlot")).toBe("getIndexerSlot");
    expect(label.of("rm -rf /")).toBe(OTHER);
  });

  it("keeps the first `cap` other values, then answers `other` for every new one", () => {
    const label = new BoundedLabel([], 3);
    const seen = Array.from({ length: 1000 }, (_, i) => label.of(String(-32000 - i)));
    expect(new Set(seen)).toEqual(new Set(["-32000", "-32001", "-32002", OTHER]));
    expect(label.of("-32001")).toBe("-32001");
  });

  it("never keeps a long value", () => {
    expect(new BoundedLabel([], 5).of("x".repeat(41))).toBe(OTHER);
  });
});
