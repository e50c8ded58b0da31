/**
 * Orders as comparators: integers as integers (number and bigint mixed), base58 by bytes,
 * item paths, a missing field as an internal error, and the order a method without its own
 * takes from the lists of its items.
 */
import { describe, expect, it } from "vitest";
import { methods } from "../../../generated/methods.js";
import { encodeBase58, type MethodInfo } from "../../../runtime/index.js";
import { RefErrorCode } from "../../../reference/errors.js";
import { Random } from "../../../reference/random.js";
import { documentedOrder, orderComparator, orderSignature, Sorted } from "../../../reference/store.js";
import { bytes } from "./build.js";
import { order } from "./check.js";

describe("orders", () => {
  it("compares integers as integers, number and bigint alike, past 2^53", () => {
    const compare = orderComparator<{ n: number | bigint }>(order(["n", "asc", "integer"]));
    expect(compare({ n: 9 }, { n: 10 })).toBeLessThan(0);
    expect(compare({ n: 2n ** 64n - 1n }, { n: Number.MAX_SAFE_INTEGER })).toBeGreaterThan(0);
    expect(compare({ n: 2n ** 60n }, { n: 2n ** 60n + 1n })).toBeLessThan(0);
    expect(compare({ n: 5n }, { n: 5 })).toBe(0);
  });

  it("compares base58 values by their bytes, not their text", () => {
    const rng = new Random(11, "order-test");
    const texts = Array.from({ length: 200 }, () => {
      const value = rng.bytes(32);
      if (rng.chance(0.2)) value[0] = 0;
      return encodeBase58(value);
    });
    const byBytes = [...texts].sort((a, b) => Buffer.compare(bytes(a), bytes(b)));
    // Text order and byte order differ (text lengths vary with the value and leading zero bytes).
    expect([...texts].sort()).not.toEqual(byBytes);
    const list = new Sorted(
      texts.map((key) => ({ key })),
      order(["key", "asc", "base58-bytes"]),
    );
    expect(list.rows.map((r) => r.key)).toEqual(byBytes);
  });

  it("reads nested item paths, descending keys and renamed fields", () => {
    const keys = order(["tokenData.mint", "desc", "string"], ["account.hash", "asc", "string"]);
    const rows = [
      { tokenData: { mint: "a" }, account: { hash: "2" } },
      { tokenData: { mint: "b" }, account: { hash: "1" } },
      { tokenData: { mint: "a" }, account: { hash: "1" } },
    ];
    const list = new Sorted([...rows], keys);
    expect(list.rows).toEqual([rows[1], rows[2], rows[0]]);
    expect(list.after({ tokenData: { mint: "a" }, account: { hash: "1" } })).toBe(2);
    const renamed = orderComparator<{ token: { mint: string } }>(order(["tokenData.mint", "asc", "string"]), { tokenData: "token" });
    expect(renamed({ token: { mint: "a" } }, { token: { mint: "b" } })).toBeLessThan(0);
  });

  it("treats a row without an ordered field as a broken invariant", () => {
    const compare = orderComparator<Record<string, unknown>>(order(["slot", "desc", "integer"]));
    expect(() => compare({ slot: 1 }, { other: 2 })).toThrow(expect.objectContaining({ code: RefErrorCode.INTERNAL }));
  });

  it("names equal orders alike", () => {
    const a = order(["slot", "desc", "integer"], ["signature", "desc", "base58-bytes"]);
    expect(orderSignature(a)).toBe(orderSignature(a.map((k) => ({ ...k }))));
    expect(orderSignature(a)).not.toBe(orderSignature(a.slice(0, 1)));
  });

  it("gives a method its own order, else the order the lists of its items share", () => {
    for (const facts of Object.values(methods) as MethodInfo[]) {
      const own = facts.pagination?.order;
      const siblings = (Object.values(methods) as MethodInfo[]).filter((m) => facts.identity !== null && m.identity === facts.identity && m.pagination?.order);
      if (own) expect(documentedOrder(facts)).toBe(own);
      else if (siblings.length > 0) {
        for (const m of siblings) expect(orderSignature(documentedOrder(facts))).toBe(orderSignature(m.pagination?.order ?? []));
      } else expect(() => documentedOrder(facts)).toThrow(expect.objectContaining({ code: RefErrorCode.INTERNAL }));
    }
    // An unpaginated list of paginated items (it appears with the 0.51.2 spec: signatures of one account).
    const fake: MethodInfo = { ...methods.getCompressionSignaturesForTokenOwner, name: "unpaginated", pagination: null };
    expect(documentedOrder(fake)).toEqual(methods.getCompressionSignaturesForTokenOwner.pagination?.order);
  });
});
