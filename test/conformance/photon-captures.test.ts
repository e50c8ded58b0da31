/**
 * `check` on real Photon 0.51.2 traffic: the proof and validity-proof answers of Photon's own
 * integration tests (test/fixtures/photon-snapshots, vendored insta snapshots), replayed as
 * exchanges with the request each test made (tests/integration_tests/e2e_tests.rs:181-215,
 * mock_tests.rs:1160-1215 at 366a15b). One capture file per test scenario: each ran on its own
 * database, so two scenarios may state different roots for the same tree and rootSeq.
 * A correct deployment's captured traffic passes; what needs a live call is skipped, said so.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFile } from "../../conformance/offline.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { useScratch } from "../helpers/scratch.js";

const fixtures = join(import.meta.dirname, "..", "fixtures", "photon-snapshots");
const dir = useScratch("photon-captures");

type Obj = Record<string, any>;

/** The snapshot's JSON (the text after insta's `---` header). */
function snapshot(file: string): Obj {
  const text = readFileSync(join(fixtures, file), "utf8");
  return parseJson(text.slice(text.indexOf("---", 3) + 3)) as Obj;
}

/**
 * Photon's tests blank the Groth16 proof before snapshotting it ("the Gnark prover has some
 * randomness", e2e_tests.rs:197); on the wire it is always a = 32, b = 64, c = 32 bytes. The
 * replay puts bytes of that shape back (not the placeholder 1..n, which the check notes).
 */
function restoreProof(value: Obj): void {
  const bytes = (n: number, salt: number) => Array.from({ length: n }, (_, i) => (i * 37 + salt) % 256);
  if (value.compressedProof && value.compressedProof.a.length === 0) value.compressedProof = { a: bytes(32, 3), b: bytes(64, 5), c: bytes(32, 7) };
}

/** The request Photon's test made for a snapshot, from its name and answer; null when it cannot be told. */
function requestOf(file: string, value: Obj): { method: string; params: unknown } | null {
  const mock = file.includes("__mock_tests__");
  if (file.endsWith("-validity-proof-v2.snap"))
    return {
      method: "getValidityProofV2",
      params: {
        hashes: value.accounts.map((a: Obj) => a.hash),
        newAddressesWithTrees: value.addresses.map((a: Obj) => ({ address: a.address, tree: a.merkleContext.tree })),
      },
    };
  if (file.endsWith("-validity-proof.snap")) return { method: "getValidityProof", params: mock ? { newAddresses: value.leaves } : { hashes: value.leaves } };
  if (file.endsWith("-proofs.snap")) return { method: "getMultipleCompressedAccountProofs", params: value.map((p: Obj) => p.hash) };
  if (file.endsWith("-proof-address.snap")) return { method: "getMultipleNewAddressProofs", params: value.map((p: Obj) => p.address) };
  return null;
}

/** Capture files (JSON lines) by scenario: the snapshot name before its `-<person>-<what>` tail. */
function captures(): Map<string, string[]> {
  const byScenario = new Map<string, string[]>();
  for (const file of readdirSync(fixtures)
    .filter((f) => f.endsWith(".snap"))
    .sort()) {
    const result = snapshot(file);
    // Snapshots insta kept from older tests hold a bare value: not an answer of 0.51.2.
    if (!("context" in result)) continue;
    const request = requestOf(file, result.value);
    if (!request) continue;
    restoreProof(result.value);
    const scenario = file.replace(/-.*$/, "");
    const lines = byScenario.get(scenario) ?? [];
    const id = lines.length + 1;
    lines.push(stringifyJson({ request: { jsonrpc: "2.0", id, ...request }, response: { jsonrpc: "2.0", result, id } }));
    byScenario.set(scenario, lines);
  }
  return byScenario;
}

describe("check on Photon 0.51.2's own answers", () => {
  const scenarios = captures();

  it("replays every validity-proof snapshot, V1 and V2", () => {
    const all = [...scenarios.values()].flat();
    expect(all.filter((l) => l.includes('"method":"getValidityProof"'))).toHaveLength(9);
    expect(all.filter((l) => l.includes('"method":"getValidityProofV2"'))).toHaveLength(3);
    expect(scenarios.size).toBeGreaterThanOrEqual(6);
  });

  for (const [scenario, lines] of scenarios)
    it(`passes ${scenario} (${lines.length} exchanges)`, async () => {
      const file = join(dir, `${scenario}.jsonl`);
      writeFileSync(file, `${lines.join("\n")}\n`);
      const summary = await checkFile({ file });
      const failed = summary.results.flatMap((r) => r.findings.filter((f) => f.status === "fail").map((f) => `${r.id} ${f.check}: ${f.message}`));
      expect(failed).toEqual([]);
      expect(summary.passed).toBe(true);
      expect(summary.counts.pass + summary.counts.warn + summary.counts.skip).toBe(lines.length);
      // What needs a live call (a validity proof against the separate proof calls) is said to be skipped.
      const validity = summary.results.filter((r) => r.method.startsWith("getValidityProof"));
      for (const r of validity) expect(r.findings.some((f) => f.check === "proofs" && f.status === "skip" && /captured traffic/.test(f.message))).toBe(true);
    });
});
