/** `run --discover` over the whole corpus against data the shipped profile does not describe. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { TOKEN_PROGRAM } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("discover-e2e");
const indexer = useReferenceIndexer({ seed: 5 });
const run = (...args: string[]) => captured(main, args);

describe("run --discover", () => {
  it("certifies the target with the profile it derived, and writes that profile into the report", async () => {
    const md = join(dir, "certificate.md");
    const r = await run(
      "run",
      "--url",
      indexer().url,
      "--discover",
      "--seed-owner",
      TOKEN_PROGRAM,
      "--reporter",
      "markdown",
      "--output",
      md,
      "--reporter",
      "json",
      "--output",
      join(dir, "r.json"),
    );
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as {
      counts: { pass: number; skip: number; fail: number };
      discoveredFixtures: Record<string, unknown>;
    };
    expect(json.counts.pass).toBeGreaterThan(60);
    expect(json.counts.skip).toBeGreaterThan(0);
    expect(json.counts.fail).toBe(0);
    // The keys for the 0.51.2 methods are among those discovered (their cases run instead of skipping).
    expect(Object.keys(json.discoveredFixtures)).toEqual(
      expect.arrayContaining(["delegateWithManyAccounts", "mintWithManyHolders", "delegatedMint", "closedAccount", "tokenAccountOpened"]),
    );
    expect(json.discoveredFixtures.discoveredFrom).toBe(TOKEN_PROGRAM);
    expect(readFileSync(md, "utf8")).toContain("## Fixtures discovered from the target");
  });
});
