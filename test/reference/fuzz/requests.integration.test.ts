/**
 * The reference indexer's HTTP server fed generated malformed or hostile requests, a twentieth of
 * each category of the long run (requests.e2e.test.ts); every answer is checked by the oracle.
 */
import { describe, expect, it } from "vitest";
import { FUZZ_SEED } from "./oracle.js";
import { CATEGORIES } from "./requests.js";
import { expectHealthy, fuzzes, sentTotal, useFuzzServer } from "./server.js";

useFuzzServer();

describe("reference indexer under fuzzing", () => {
  CATEGORIES.forEach(([name, arb, runs], n) => fuzzes(name, arb, Math.ceil(runs / 20), FUZZ_SEED + n));

  it("sent at least 500 requests", () => {
    expect(sentTotal()).toBeGreaterThanOrEqual(500);
  });

  expectHealthy();
});
