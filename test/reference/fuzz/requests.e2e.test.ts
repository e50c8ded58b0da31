/**
 * The long fuzzing run: more than 10,000 generated malformed or hostile requests (bad JSON, invalid
 * UTF-8, huge numbers, `__proto__` keys, deep nesting, bad base58, oversized arrays, random params
 * for every method, odd ids, batches of all these) over HTTP, 16 at a time, each answer checked.
 * Reproducible: a category's seed is in its test name; a failure prints the requests and answers.
 */
import { describe, expect, it } from "vitest";
import { FUZZ_SEED } from "./oracle.js";
import { CATEGORIES } from "./requests.js";
import { expectHealthy, fuzzes, sentTotal, useFuzzServer } from "./server.js";

useFuzzServer();

describe("reference indexer under fuzzing, at length", () => {
  CATEGORIES.forEach(([name, arb, runs], n) => fuzzes(name, arb, runs, FUZZ_SEED + n));

  it("sent at least 10,000 requests", () => {
    expect(sentTotal()).toBeGreaterThanOrEqual(10_000);
  });

  expectHealthy();
});
