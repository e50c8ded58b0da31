/** Option values as typed: a target URL without a scheme is refused, its credentials masked; --reporter pairs with its --output. */
import { describe, expect, it } from "vitest";
import { main } from "../../../conformance/cli/main.js";
import { reporterPairs } from "../../../conformance/cli/options.js";
import { captured } from "../../helpers/capture.js";

const KEY = "k3y-in-the-query-str1ng";
const run = (...args: string[]) => captured(main, args);

describe("the URL as typed", () => {
  it("refuses a URL without a scheme with exit 2, showing what was typed with its credentials masked", async () => {
    const plain = await run("run", "--url", "127.0.0.1:8784");
    expect(plain.code).toBe(2);
    expect(plain.out).toContain("--url must be an http:// or https:// URL");
    expect(plain.out).toContain("(got '127.0.0.1:8784')");
    const secret = await run("run", "--url", `operator:${KEY}@indexer.example.com:8784/?token=${KEY}`);
    expect(secret.code).toBe(2);
    expect(secret.out).toContain("(got 'operator:***@indexer.example.com:8784/?token=***')");
    expect(secret.out).not.toContain(KEY);
    const ftp = await run("diff", "--url", "http://127.0.0.1:9/", "--against", "ftp://example.com/");
    expect(ftp.code).toBe(2);
    expect(ftp.out).toContain("--against must be an http:// or https:// URL");
    expect((await run("record", "--url", "localhost:8784", "--out", "x")).code).toBe(2);
  });
});

describe("--reporter and --output", () => {
  it("pairs --reporter with the --output that follows it", () => {
    expect(reporterPairs(["--reporter", "json", "--output", "a.json", "--reporter", "console", "--reporter=junit", "--output=b.xml"])).toEqual([
      { name: "json", output: "a.json" },
      { name: "console", output: null },
      { name: "junit", output: "b.xml" },
    ]);
    expect(() => reporterPairs(["--output", "a.json"])).toThrow(/must follow a --reporter/);
  });
});
