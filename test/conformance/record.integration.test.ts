/** `photon-conformance record`: answers written into case files, hand-written parts kept, changes reported, no secrets. */
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { main } from "../../conformance/cli/main.js";
import { loadCases } from "../../conformance/case-format.js";
import { recordCases, renderChanges } from "../../conformance/record.js";
import { runSuite } from "../../conformance/run.js";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { closeListeners, listen } from "../helpers/listener.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("record");
const corpus = join(dir, "cases");
const KEY = "rec0rd-s3cret-key";
const seed1 = useReferenceIndexer();
const seed2 = useReferenceIndexer({ seed: 2 });
const fixtures = datasetProfile(generateDataset()) as never;

beforeAll(async () => {
  mkdirSync(corpus, { recursive: true });
  cpSync(join(root, "conformance", "cases", "token-balances"), join(corpus, "token-balances"), { recursive: true });
});

describe("record", () => {
  it("writes answers into the case files, keeping what was hand-written, with nothing secret", async () => {
    const changes = await recordCases({ url: `${seed1().url}?api-key=${KEY}`, out: corpus, casesDir: corpus, fixtures });
    expect(changes.length).toBe(readdirSync(join(corpus, "token-balances")).length);
    expect(changes.every((c) => c.kind === "new")).toBe(true);
    const text = readFileSync(join(corpus, "token-balances", "many-mints.yaml"), "utf8");
    const original = readFileSync(join(root, "conformance", "cases", "token-balances", "many-mints.yaml"), "utf8");
    expect(text.startsWith(original.trimEnd().split("\n")[0]!)).toBe(true);
    const data = parse(text, { intAsBigInt: true });
    expect(data.expect).toEqual(parse(original, { intAsBigInt: true }).expect);
    expect(data.recorded.status).toBe(200n);
    expect(data.recorded.ignore).toEqual(["id", "result.context.slot", "result.value.cursor"]);
    expect(data.recorded.body.result.value.token_balances.length).toBeGreaterThan(10);
    for (const f of readdirSync(join(corpus, "token-balances"))) expect(readFileSync(join(corpus, "token-balances", f), "utf8")).not.toContain(KEY);
    const big = parse(readFileSync(join(corpus, "token-balances", "max-balance.yaml"), "utf8"), { intAsBigInt: true });
    expect(JSON.stringify(big.recorded.body, (_k, v) => (typeof v === "bigint" ? v.toString() : v))).toContain("18446744073709551615");
  }, 60_000);

  it("keeps the recorded corpus runnable", async () => {
    expect((await loadCases(corpus, fixtures)).every((c) => c.recorded !== null)).toBe(true);
    const summary = await runSuite({ url: seed1().url, casesDir: corpus, fixtures });
    expect(summary.results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual([]);
  }, 60_000);

  it("re-recording reports what changed, by path, and nothing when nothing did", async () => {
    const same = await recordCases({ url: seed1().url, out: corpus, casesDir: corpus, fixtures });
    expect(same.every((c) => c.kind === "same")).toBe(true);
    const changed = await recordCases({ url: seed2().url, out: corpus, casesDir: corpus, fixtures });
    const many = changed.find((c) => c.id === "token-balances/many-mints")!;
    expect(many.kind).toBe("changed");
    expect(many.paths.some((p) => p.path.startsWith("result.value.token_balances"))).toBe(true);
    const text = renderChanges(changed);
    expect(text).toMatch(/^~ token-balances\/many-mints$/m);
    expect(text).toMatch(/cases recorded: 0 new, \d+ changed/);
  }, 60_000);

  it("exits 2 when the indexer is unreachable, leaving the files alone", async () => {
    const before = readFileSync(join(corpus, "token-balances", "many-mints.yaml"), "utf8");
    expect((await captured(main, ["record", "--url", "http://127.0.0.1:1/", "--out", corpus, "--cases", corpus])).code).toBe(2);
    expect(readFileSync(join(corpus, "token-balances", "many-mints.yaml"), "utf8")).toBe(before);
  });
});

describe("record against a target whose answer no case file could hold", () => {
  const hostile = join(dir, "hostile");
  const CASE = "method: getIndexerSlot\ndescription: the slot\nexpect:\n  result: {type: uint64}\n";
  afterAll(closeListeners);

  /** A target answering every call with `result` (its JSON text), echoing the id. */
  const answering = (result: string) =>
    listen((req, res) => {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString()));
      req.on("end", () => {
        const id = (JSON.parse(text || "{}") as { id?: unknown }).id ?? null;
        res.writeHead(200, { "content-type": "application/json" }).end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`);
      });
    });

  async function recordOne(name: string, result: string) {
    const corpus = join(hostile, name);
    mkdirSync(corpus, { recursive: true });
    writeFileSync(join(corpus, "slot.yaml"), CASE);
    const [change] = await recordCases({ url: await answering(result), out: corpus, casesDir: corpus, fixtures: {} });
    return { change: change!, corpus };
  }

  it.each<[string, string, RegExp]>([
    ["300,000 values", `[${"0,".repeat(299_999)}0]`, /holds more than 200000 values/],
    ["nesting 300 deep", `${"[".repeat(300)}0${"]".repeat(300)}`, /nests more than 256 levels/],
  ])(
    "an answer of %s is not recorded, with a clear message; the case file stays as it was",
    async (name, result, message) => {
      const { change, corpus } = await recordOne(name.replace(/\W+/g, "-"), result);
      expect(change.kind).toBe("failed");
      expect(change.message).toMatch(/^not recorded: the answer/);
      expect(change.message).toMatch(message);
      expect(readFileSync(join(corpus, "slot.yaml"), "utf8")).toBe(CASE);
      expect(renderChanges([change])).toContain(`! slot: ${change.message}`);
      expect((await loadCases(corpus, {}))[0]!.recorded).toBeNull();
    },
    60_000,
  );

  it("an answer just within the bounds that the rest of the case file takes past them is not recorded either", async () => {
    const { change, corpus } = await recordOne("file-past", `[${"0,".repeat(199_989)}0]`);
    expect(change.kind).toBe("failed");
    expect(change.message).toMatch(/^not recorded: the case file with this answer would not load: more than 200000 values/);
    expect(readFileSync(join(corpus, "slot.yaml"), "utf8")).toBe(CASE);
  }, 60_000);

  it("an answer nested 120 deep, within the loader's bounds, is recorded and loads (YAML's own default stopped at 100)", async () => {
    const { change, corpus } = await recordOne("deep-120", `${'{"a":'.repeat(120)}0${"}".repeat(120)}`);
    expect(change.kind, change.message).toBe("new");
    const [loaded] = await loadCases(corpus, {});
    expect(JSON.stringify(loaded!.recorded)).toContain('{"a":{"a":');
  }, 60_000);
});

describe("record --out DIR", () => {
  it("reports changes against the recording already in DIR, not the corpus", async () => {
    const corpus = join(dir, "out-corpus");
    const out = join(dir, "recorded");
    cpSync(join(root, "conformance", "cases", "token-balances"), join(corpus, "token-balances"), { recursive: true });
    const first = await recordCases({ url: seed1().url, out, casesDir: corpus, fixtures });
    expect(first.every((c) => c.kind === "new")).toBe(true);
    expect(readdirSync(join(out, "token-balances")).length).toBe(first.length);
    const again = await recordCases({ url: seed1().url, out, casesDir: corpus, fixtures });
    expect(again.map((c) => c.kind)).toEqual(first.map(() => "same"));
    // A hand edit in --out is kept by the next recording.
    const file = join(out, "token-balances", "many-mints.yaml");
    writeFileSync(file, `# reviewed by hand\n${readFileSync(file, "utf8")}`);
    await recordCases({ url: seed1().url, out, casesDir: corpus, fixtures });
    expect(readFileSync(file, "utf8").startsWith("# reviewed by hand\n")).toBe(true);
  }, 60_000);
});
