/** --discover: a fixtures profile derived from the target, enough to certify it knowing nothing of its data. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { methods } from "../../generated/methods.js";
import { main } from "../../conformance/cli.js";
import { discoverFixtures } from "../../conformance/discover.js";
import { createTarget } from "../../conformance/target.js";
import { datasetProfile, generateDataset, TOKEN_PROGRAM } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";
import { expectedBalances } from "../reference/oracles.js";

const dir = useScratch("discover");
const indexer = useReferenceIndexer({ seed: 5 }); // data the shipped profile does not describe
const data = generateDataset({ seed: 5 });
const profile = datasetProfile(data);

const run = (...args: string[]) => captured(main, args);

const target = () => createTarget({ url: indexer().url, headers: {}, timeoutMs: 5000, maxBodyBytes: 1 << 24, maxRps: null, retry: false });

describe("discoverFixtures", () => {
  it("finds token owners and mints from the token program's accounts, checked against the target's own lists", async () => {
    const found = await discoverFixtures(target(), TOKEN_PROGRAM);
    expect(found.tokenProgram).toBe(TOKEN_PROGRAM);
    const many = found.tokenOwnerWithManyMints as { owner: string; mints: number; mint: string };
    // `mints` counts balance rows, as the target lists them (Photon's zero-balance rule: no row for a mint held only at amount 0).
    expect(expectedBalances(data, many.owner)).toHaveLength(many.mints);
    expect(
      indexer()
        .store.tokenAccounts(many.owner, methods.getCompressedTokenAccountsByOwner.pagination?.order ?? [])
        .some((t) => t.token.mint === many.mint),
    ).toBe(true);
    expect(indexer().store.unspentByHash(found.knownHash as string)?.address).toBe(found.knownAddress);
    expect(indexer().store.unspentByHash(found.unknownHash as string)).toBeNull();
    expect(found.slot).toBe(indexer().store.slot);
  });

  it("finds memcmp prefixes with exact counts from a complete list", async () => {
    const found = await discoverFixtures(target(), profile.memcmpOwner.owner);
    const memcmp = found.memcmpOwner as { matching: { count: number }; nonMatching: { count: number }; unspent: number };
    expect(memcmp.unspent).toBe(profile.memcmpOwner.unspent);
    expect(memcmp.matching.count).toBeGreaterThan(0);
    expect(memcmp.nonMatching.count).toBe(0);
  });
});

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
      counts: { pass: number; skip: number };
      discoveredFixtures: Record<string, unknown>;
    };
    expect(json.counts.pass).toBeGreaterThan(60);
    expect(json.counts.skip).toBeGreaterThan(0);
    expect(json.discoveredFixtures.discoveredFrom).toBe(TOKEN_PROGRAM);
    expect(readFileSync(md, "utf8")).toContain("## Fixtures discovered from the target");
  }, 60_000);

  it("needs --seed-owner (usage error)", async () => {
    const r = await run("run", "--url", indexer().url, "--discover");
    expect(r.code).toBe(2);
    expect(r.out).toContain("--discover needs --seed-owner");
  });
});
