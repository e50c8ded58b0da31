/**
 * `run --save-fixtures FILE`: the profile a run used, written losslessly so that an operator can
 * review it, commit it and give it back to --fixtures, which then gives the same verdict.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson, type Json } from "@photon-indexer-kit/runtime";
import { main } from "../../conformance/cli/main.js";
import { readFixtures } from "../../conformance/fixtures.js";
import { profileText } from "../../conformance/fixtures-save.js";
import { TOKEN_PROGRAM } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("discover-save");
const indexer = useReferenceIndexer({ seed: 5 }); // frozen, and data the shipped profile does not describe

/** `run --discover` from the token program; used only where it is refused first: no case runs. */
const discovering = () => ["run", "--url", indexer().url, "--discover", "--seed-owner", TOKEN_PROGRAM];

describe("run --save-fixtures", () => {
  it("writes the given profile as it was read; a file already there is replaced whole, nothing left beside it", async () => {
    const folder = join(dir, "given");
    mkdirSync(folder, { recursive: true });
    const saved = join(folder, "profile.json");
    writeFileSync(saved, "an older profile, longer than the new one would ever be… ".repeat(4000));
    const r = await captured(main, [
      "run",
      "--url",
      indexer().url,
      "--method",
      "getIndexerSlot",
      "--save-fixtures",
      saved,
      "--reporter",
      "json",
      "--output",
      join(dir, "c.json"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(parseJson(readFileSync(saved, "utf8"))).toEqual(await readFixtures());
    expect(readdirSync(folder)).toEqual(["profile.json"]);
  }, 60_000);

  it("a place nothing can be written: one line naming the file, exit 2, before anything is sent", async () => {
    const folder = join(dir, "a-folder");
    mkdirSync(folder, { recursive: true });
    const r = await captured(main, [...discovering(), "--save-fixtures", folder]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`photon-conformance: cannot write --save-fixtures ${folder}: it is a folder\n`);
    expect(r.stdout).toBe("");
  });

  it("is lossless and reviewable: one key a line, u64 values above 2^53 written as the integers they are", () => {
    const text = profileText({ owner: "x", counts: { big: 18446744073709551615n as unknown as Json, list: [1, "two", []] }, empty: {} });
    expect(text).toBe(
      '{\n  "owner": "x",\n  "counts": {\n    "big": 18446744073709551615,\n    "list": [\n      1,\n      "two",\n      []\n    ]\n  },\n  "empty": {}\n}\n',
    );
    expect(parseJson(text)).toEqual({ owner: "x", counts: { big: 18446744073709551615n, list: [1, "two", []] }, empty: {} });
  });
});
