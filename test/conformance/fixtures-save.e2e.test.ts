/** `run --save-fixtures` after a whole `run --discover`: the saved profile, given back to --fixtures, gives the same verdict. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson, type Json } from "@photon-indexer-kit/runtime";
import { main } from "../../conformance/cli/main.js";
import { readFixtures } from "../../conformance/fixtures.js";
import { TOKEN_PROGRAM } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("save-fixtures-e2e");
const indexer = useReferenceIndexer({ seed: 5 }); // frozen, and data the shipped profile does not describe

interface Report {
  passed: boolean;
  counts: Record<string, number>;
  cases: { id: string; status: string }[];
  discoveredFixtures?: Record<string, Json>;
}
const report = (file: string) => parseJson(readFileSync(file, "utf8")) as Report;
const discovering = () => ["run", "--url", indexer().url, "--discover", "--seed-owner", TOKEN_PROGRAM];

describe("run --save-fixtures", () => {
  it("writes the discovered profile; read back with --fixtures it gives the same verdict, case by case", async () => {
    const saved = join(dir, "profiles", "discovered.json");
    const first = await captured(main, [...discovering(), "--save-fixtures", saved, "--reporter", "json", "--output", join(dir, "a.json")]);
    const a = report(join(dir, "a.json"));
    // The file holds exactly the profile the run used (u64 values above 2^53 included).
    expect(parseJson(readFileSync(saved, "utf8"))).toEqual(a.discoveredFixtures);
    expect(await readFixtures(saved)).toEqual(a.discoveredFixtures);
    const again = await captured(main, ["run", "--url", indexer().url, "--fixtures", saved, "--reporter", "json", "--output", join(dir, "b.json")]);
    const b = report(join(dir, "b.json"));
    expect(again.code).toBe(first.code);
    expect(b.passed).toBe(a.passed);
    expect(b.counts).toEqual(a.counts);
    expect(b.cases.map((c) => `${c.id} ${c.status}`)).toEqual(a.cases.map((c) => `${c.id} ${c.status}`));
    expect(a.counts.pass).toBeGreaterThan(400);
  }, 120_000);
});
