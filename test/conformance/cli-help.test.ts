/**
 * What the command line tells a new user: every reporter in --help, durations with their unit,
 * --list agreeing with the count a run reports, and an unknown --method named as such.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { durationText } from "../../conformance/cli/options.js";
import { reporterNames } from "../../conformance/reporters/index.js";
import { parseJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const run = (...args: string[]) => captured(main, args);
const indexer = useReferenceIndexer();
const dir = useScratch("conformance-help");
const UNREACHABLE = "http://127.0.0.1:1/";

describe("--help", () => {
  it("names every reporter (html too) for run, diff and check", async () => {
    for (const command of ["run", "diff", "check"]) {
      const help = (await run(command, "--help")).out.replace(/\s+/g, " ");
      expect(help, command).toContain(`--reporter <name> ${reporterNames.join("|")}`);
      expect(help).toContain("html");
    }
  });

  it("shows the duration defaults with their unit, as --max-time takes them", async () => {
    const help = (await run("run", "--help")).out.replace(/\s+/g, " ");
    expect(help).toMatch(/--max-time <duration> .*?\(default: 30m\) --case-time/);
    expect(help).toMatch(/--case-time <duration> .*?\(default: 2m\) --max-failures/);
    expect(help).not.toContain("1800000");
    expect([1_800_000, 120_000, 90_000, 1500, 7_200_000].map(durationText)).toEqual(["30m", "2m", "90s", "1500ms", "2h"]);
  });
});

describe("--list and the run agree", () => {
  const listed = async (...args: string[]) => (await run(...args, "--list")).out.trimEnd().split("\n");
  const reported = async (file: string, ...args: string[]) => {
    expect((await run(...args, "--reporter", "json", "--output", file)).code).toBe(0);
    return (parseJson(readFileSync(file, "utf8")) as { cases: { id: string }[] }).cases.map((c) => c.id);
  };

  it("run: the run-wide slot-order result is listed where the run counts it, in each shard", async () => {
    const select = ["--case", "slot/*", "--case", "run/*"];
    const all = await listed("run", "--url", UNREACHABLE, ...select);
    expect(all.at(-1)).toMatch(/^run\/slot-order\s+\(run-wide\)$/);
    const ids = await reported(join(dir, "run.json"), "run", "--url", indexer().url, ...select);
    expect(all.map((l) => l.split(/\s+/)[0]).sort()).toEqual([...ids].sort());
    const shards = [];
    for (const shard of ["1/2", "2/2"]) {
      const inShard = await listed("run", "--url", UNREACHABLE, ...select, "--shard", shard);
      const ran = await reported(join(dir, `shard-${shard[0]}.json`), "run", "--url", indexer().url, ...select, "--shard", shard);
      expect(inShard.map((l) => l.split(/\s+/)[0]).sort()).toEqual([...ran].sort());
      shards.push(...inShard.map((l) => l.split(/\s+/)[0]));
    }
    expect(shards.sort()).toEqual(all.map((l) => l.split(/\s+/)[0]).sort());
    // --method selects no run-wide result, in the list as in the run.
    expect((await listed("run", "--url", UNREACHABLE, "--method", "getIndexerSlot")).some((l) => l.startsWith("run/"))).toBe(false);
  }, 60_000);

  it("diff: its inconclusive tally is listed, as the diff counts it", async () => {
    const list = await listed("diff", "--url", UNREACHABLE, "--against", UNREACHABLE, "--case", "slot/*");
    expect(list.at(-1)).toMatch(/^diff\/inconclusive\s+\(run-wide\)$/);
    const ids = await reported(join(dir, "diff.json"), "diff", "--url", indexer().url, "--against", indexer().url, "--case", "slot/*");
    expect(list.map((l) => l.split(/\s+/)[0])).toEqual(ids);
  }, 60_000);
});

describe("--method", () => {
  it("a name that is not a method of the spec says so, with the nearest method; exit 2", async () => {
    for (const args of [
      ["run", "--url", UNREACHABLE, "--method", "getFoo"],
      ["run", "--method", "getIndexerSlott", "--list"],
      ["diff", "--url", UNREACHABLE, "--against", UNREACHABLE, "--method", "getFoo"],
      ["record", "--url", UNREACHABLE, "--out", join(dir, "never"), "--method", "getFoo"],
    ]) {
      const r = await run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toMatch(/^photon-conformance: --method \w+ is not a method of the spec \(Photon indexer JSON-RPC [\d.]+\)/);
      expect(r.out).not.toContain("no case matches");
    }
    expect((await run("run", "--method", "getIndexerSlott", "--list")).out).toContain("(did you mean getIndexerSlot?)");
    expect((await run("run", "--method", "getFoo", "--list")).out).not.toContain("did you mean");
    // A protocol case's own method (an unknown name it sends on purpose) still selects that case.
    const protocol = await run("run", "--method", "getUnknownMethod", "--list");
    expect(protocol.code).toBe(0);
    expect(protocol.out).toMatch(/\sgetUnknownMethod\n/);
  });
});
