/**
 * Fields that move with the tree's root (DECISIONS row 76): `record` writes type matchers there, so a
 * recording survives a target whose trees moved on; `diff` calls a difference there inconclusive
 * when the answers state different root sequences, and a failure when they state the same.
 */
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { diffTargets } from "../../conformance/compare.js";
import { maskMoving, movingOfBody } from "../../conformance/moving.js";
import { recordCases } from "../../conformance/record.js";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { root } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";
import { flipBit } from "./support/broken-proofs.js";
import { startBroken, type BrokenServer, type Defect } from "./support/broken-servers.js";

const dir = useScratch("moving");
const corpus = join(dir, "cases");
const dataset = generateDataset();
const fixtures = datasetProfile(dataset) as never;

/** Applies `edit` to every leaf proof (an object with `proof`, `root`, `rootSeq` and `leafIndex`) of a success reply. */
function editProofs(edit: (o: any) => void): Defect {
  const visit = (node: any): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === "object") {
      if (Array.isArray(node.proof) && "rootSeq" in node && "leafIndex" in node && "hash" in node) edit(node);
      else Object.values(node).forEach(visit);
    }
  };
  return { wire: (body: any) => (body && typeof body === "object" && "result" in body && visit(body.result), body) };
}

/** The trees moved on: every proof at the next root sequence, with another root and a changed first sibling, consistently. */
const ahead = editProofs((o) => {
  o.rootSeq = Number(o.rootSeq) + 1;
  o.root = flipBit(o.root);
  if (o.proof.length > 0) o.proof[0] = flipBit(o.proof[0]);
});
/** A real defect: the wrong leaf. */
const wrongLeaf = editProofs((o) => (o.leafIndex = Number(o.leafIndex) + 1));
/** Another root stated at the same root sequence. */
const sameSeqOtherRoot = editProofs((o) => (o.root = flipBit(o.root)));

const servers: Record<string, BrokenServer> = {};
beforeAll(async () => {
  mkdirSync(corpus, { recursive: true });
  cpSync(join(root, "conformance", "cases", "account-proofs"), join(corpus, "account-proofs"), { recursive: true });
  for (const [name, defect] of Object.entries({ reference: {}, ahead, wrongLeaf, sameSeqOtherRoot })) servers[name] = await startBroken(dataset, defect);
});
afterAll(async () => {
  for (const s of Object.values(servers)) await s.close();
});

describe("moving fields", () => {
  it("expands table paths over an answer and masks only values of the field's type", () => {
    const body = { jsonrpc: "2.0", id: 1, result: { context: { slot: 5 }, value: [{ hash: "h", leafIndex: 3, proof: [], root: "not a hash", rootSeq: 7 }] } };
    expect(movingOfBody("getMultipleCompressedAccountProofs", body).map((m) => [m.path, m.seq])).toEqual([
      ["result.value.0.proof", "result.value.0.rootSeq"],
      ["result.value.0.root", "result.value.0.rootSeq"],
      ["result.value.0.rootSeq", "result.value.0.rootSeq"],
    ]);
    // `root` is not a hash here: kept, so the change shows; the others become their matchers; the leaf stays.
    expect((maskMoving("getMultipleCompressedAccountProofs", body) as any).result.value[0]).toEqual({
      hash: "h",
      leafIndex: 3,
      proof: { type: "array" },
      root: "not a hash",
      rootSeq: { type: "uint64" },
    });
    expect(maskMoving("getCompressedAccount", body)).toBe(body);
  });

  it("masks what moves with the slot (an account's proveByIndex) and keeps what moves with the state (the account found)", () => {
    const account = { hash: "h", leafIndex: 3, seq: null, proveByIndex: true, lamports: 5 };
    const body = [{ jsonrpc: "2.0", id: 1, result: { context: { slot: 5 }, value: account } }];
    expect(movingOfBody("getCompressedAccountV2", body).map((m) => [m.path, m.field.with])).toEqual([
      ["0.result.value", "state"],
      ["0.result.value.proveByIndex", "slot"],
    ]);
    const masked = maskMoving("getCompressedAccountV2", body) as any;
    expect(masked[0].result.value).toEqual({ ...account, proveByIndex: { type: "boolean" } });
    expect(body[0]!.result.value.proveByIndex).toBe(true); // the answer itself is left as it came
  });

  it("record writes type matchers at moving fields; a target whose trees moved on re-records as the same, a wrong leaf index as a change", async () => {
    const first = await recordCases({ url: servers.reference!.url, out: corpus, casesDir: corpus, fixtures });
    expect(first.filter((c) => c.kind === "new").length).toBeGreaterThan(5);
    const recorded = parse(readFileSync(join(corpus, "account-proofs", "multiple-in-input-order.yaml"), "utf8"), { intAsBigInt: true }).recorded;
    const proof = recorded.body.result.value[0];
    expect(proof.root).toEqual({ type: "hash" });
    expect(proof.rootSeq).toEqual({ type: "uint64" });
    expect(proof.proof).toEqual({ type: "array" });
    expect(typeof proof.hash).toBe("string");
    expect(typeof proof.leafIndex).toBe("bigint");

    const moved = await recordCases({ url: servers.ahead!.url, out: corpus, casesDir: corpus, fixtures });
    expect(moved.filter((c) => c.kind === "changed")).toEqual([]);
    expect(moved.filter((c) => c.kind === "same").length).toBe(first.filter((c) => c.kind === "new").length);

    const broken = await recordCases({ url: servers.wrongLeaf!.url, out: join(dir, "broken"), casesDir: corpus, fixtures });
    const changed = broken.find((c) => c.id === "account-proofs/multiple-in-input-order")!;
    expect(changed.kind).toBe("changed");
    expect(changed.paths.map((p) => p.path)).toContain("result.value.0.leafIndex");
    expect(changed.paths.every((p) => p.path.endsWith("leafIndex"))).toBe(true);
  }, 60_000);

  it("diff: a target one root sequence ahead is inconclusive, never a failure; another root at the same sequence fails", async () => {
    const cases = { casesDir: corpus, fixtures, caseGlobs: ["account-proofs/*"], maxInconclusive: 1000 };
    const aheadRun = await diffTargets({ url: servers.ahead!.url, against: servers.reference!.url, ...cases });
    const perCase = aheadRun.results.filter((r) => r.id.startsWith("account-proofs/"));
    expect(perCase.filter((r) => r.status === "fail").map((r) => r.id)).toEqual([]);
    const inconclusive = perCase.filter((r) => r.findings.some((f) => /different root sequences \(one side is ahead\)/.test(f.message)));
    expect(inconclusive.map((r) => r.id)).toContain("account-proofs/multiple-in-input-order");
    expect(inconclusive.every((r) => r.status === "warn")).toBe(true);

    const other = await diffTargets({ url: servers.sameSeqOtherRoot!.url, against: servers.reference!.url, ...cases });
    const failed = other.results.find((r) => r.id === "account-proofs/multiple-in-input-order")!;
    expect(failed.status).toBe("fail");
    expect(failed.findings.some((f) => f.status === "fail" && /result\.value\.0\.root/.test(f.message))).toBe(true);
  }, 60_000);
});
