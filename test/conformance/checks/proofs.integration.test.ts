/**
 * The proofs check: every proof case of the corpus passes against the reference indexer, and
 * broken variants (a flipped sibling, an altered root, a range that does not bracket its address,
 * a changed nextIndex, root indexes past the root history) fail it with a message naming the
 * field and the values. Also judged offline (`check FILE`) and on hand-made answers.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proofFindings, MAX_FOLDS } from "../../../conformance/checks/proofs.js";
import type { Finding, RunSummary } from "../../../conformance/results.js";
import { checkFile } from "../../../conformance/offline.js";
import { runSuite, type RunOptions } from "../../../conformance/run.js";
import { createReferenceHandlers, datasetProfile, generateDataset, ReferenceStore, type Dataset } from "../../../reference/index.js";
import { stringifyJson, type CallContext } from "../../../runtime/index.js";
import { root } from "../../helpers/paths.js";
import { useScratch } from "../../helpers/scratch.js";
import { proofMethods } from "../../../conformance/checks/proof-agreement.js";
import { hash2, RootLedger } from "../../../conformance/checks/root-ledger.js";
import { specMethods } from "../../../conformance/spec-facts.js";
import {
  alteredRoot,
  flipBit,
  lowElementMoved,
  nextIndexChanged,
  rangeSwapped,
  rootIndexOffByOne,
  rootIndexOutOfHistory,
  siblingFlipped,
  staleRoot,
  twoRootsPerSeq,
  validityStaleRoot,
} from "../support/broken-proofs.js";
import { startBroken, type Defect } from "../support/broken-servers.js";

let dataset: Dataset;
let fixtures: RunOptions["fixtures"];
let profile: ReturnType<typeof datasetProfile>;
let handlers: any;
const ctx = {} as CallContext;

beforeAll(() => {
  dataset = generateDataset();
  profile = datasetProfile(dataset);
  fixtures = profile as unknown as RunOptions["fixtures"];
  handlers = createReferenceHandlers(new ReferenceStore(dataset));
});

const PROOF_CASES = ["account-proofs/*", "new-address-proofs/*", "validity-proofs/*"];

async function runAgainst(defect: Defect, caseGlobs: string[]): Promise<RunSummary> {
  const server = await startBroken(dataset, defect);
  try {
    return await runSuite({ url: server.url, casesDir: join(root, "conformance", "cases"), fixtures, concurrency: 4, caseGlobs });
  } finally {
    await server.close();
  }
}

const proofsOf = (summary: RunSummary, status?: Finding["status"]): { id: string; f: Finding }[] =>
  summary.results.flatMap((r) => r.findings.filter((f) => f.check === "proofs" && (!status || f.status === status)).map((f) => ({ id: r.id, f })));

describe("against the reference indexer", () => {
  let summary: RunSummary;
  beforeAll(async () => {
    summary = await runAgainst({}, PROOF_CASES);
  }, 60_000);

  it("passes every proof case, folding every proof it finds", () => {
    expect(proofsOf(summary, "fail").map(({ id, f }) => `${id}: ${f.message}`)).toEqual([]);
    expect(summary.passed).toBe(true);
    const passes = proofsOf(summary, "pass");
    expect(passes.some(({ f }) => /Merkle proofs? folds? to (its|their) roots?/.test(f.message))).toBe(true);
    expect(passes.some(({ id, f }) => id.startsWith("new-address-proofs/") && /folds? to (its|their) roots?/.test(f.message))).toBe(true);
    expect(passes.some(({ id, f }) => id.startsWith("validity-proofs/") && /root indexes within the root history/.test(f.message))).toBe(true);
  });

  it("compares every validity proof with the separate proof calls (V1 and V2, accounts, addresses, by index)", () => {
    const agree = proofsOf(summary, "pass").filter(({ f }) =>
      /validity-proof entr(y agrees|ies agree) with the separate proof calls \(\d+ calls?\)/.test(f.message),
    );
    expect(agree.map(({ id }) => id)).toEqual(
      expect.arrayContaining([
        "validity-proofs/v1-account",
        "validity-proofs/v1-accounts-then-addresses",
        "validity-proofs/v1-deprecated-new-addresses",
        "validity-proofs/v2-account-and-address",
        "validity-proofs/v2-by-index-and-proved",
      ]),
    );
    expect(proofsOf(summary, "skip").filter(({ f }) => /separate proof|across the run/.test(f.message))).toEqual([]);
  });

  it("notes the placeholder Groth16 proof as a skip, never a pass", () => {
    const placeholders = proofsOf(summary).filter(({ f }) => /placeholder proof/.test(f.message));
    expect(placeholders.length).toBeGreaterThan(0);
    for (const { f } of placeholders) {
      expect(f.status).toBe("skip");
      expect(f.note).toBe(true);
      expect(f.message).toMatch(/^result\.value\.compressedProof is the placeholder proof/);
    }
    expect(summary.notes).toContainEqual(expect.stringMatching(/placeholder proof .*: \d+ cases/));
  });
});

describe("against broken variants", () => {
  const cases: [string, Defect, string[], RegExp][] = [
    [
      "one sibling flipped",
      siblingFlipped,
      ["account-proofs/v1-state-tree"],
      /^result\.value\.proof does not fold to result\.value\.root: leaf "[1-9A-HJ-NP-Za-km-z]+" at leafIndex \d+ with 26 siblings/,
    ],
    [
      "one sibling flipped (V2, batched)",
      siblingFlipped,
      ["account-proofs/v2-batched-tree"],
      /^result\.value\.proof does not fold to result\.value\.root: .* with 32 siblings/,
    ],
    ["an altered root", alteredRoot, ["account-proofs/v1-state-tree"], /^result\.value\.proof does not fold to result\.value\.root/],
    [
      "a stale root among proofs of one tree",
      staleRoot,
      ["account-proofs/multiple-in-input-order"],
      /^result\.value\.1\.root differs from result\.value\.0\.root, a proof of the same tree \w+ at the same rootSeq \d+$/,
    ],
    [
      "a range that does not bracket the address",
      rangeSwapped,
      ["new-address-proofs/v1-new-address"],
      /^result\.value\.0: the low element's range does not bracket the address \(lowerRangeAddress < address < higherRangeAddress/,
    ],
    [
      "a changed nextIndex (V1 leaf)",
      nextIndexChanged,
      ["new-address-proofs/v1-new-address"],
      /^result\.value\.0\.proof does not fold to result\.value\.0\.root: the V1 low element Poseidon\(lowerRangeAddress, nextIndex, higherRangeAddress\)/,
    ],
    [
      "root indexes past the history (V1)",
      rootIndexOutOfHistory,
      ["validity-proofs/v1-account"],
      /^result\.value\.roots\.0: root index \d+ is not within the root history of any tree \(2400, the largest\) \(rootIndex = rootSeq % 2400\)$/,
    ],
    [
      "a wrong rootIndex (V2 address)",
      rootIndexOutOfHistory,
      ["validity-proofs/v2-account-and-address"],
      /^result\.value\.addresses\.0\.root: root index \d+ is not within the root history of a tree of type 4 \(200 roots\) \(rootIndex = rootSeq % 200\)$/,
    ],
    [
      "a validity root index that is not the separate proof's rootSeq % history (V1)",
      rootIndexOffByOne,
      ["validity-proofs/v1-account"],
      /^result\.value\.rootIndices\.0: root index is not the rootSeq \d+ of \w+'s proof of account \w+ modulo the tree's root history \(2400\)$/,
    ],
    [
      "a validity root index that is not the separate proof's rootSeq % history (V2)",
      rootIndexOffByOne,
      ["validity-proofs/v2-by-index-and-proved"],
      /^result\.value\.accounts\.1\.rootIndex\.rootIndex: root index is not the rootSeq \d+ of \w+'s proof of account \w+ modulo the tree's root history \(200\)$/,
    ],
    [
      "a stale validity root (not the separate proof's)",
      validityStaleRoot,
      ["validity-proofs/v1-accounts-then-addresses"],
      /^result\.value\.roots\.0: not the root of \w+'s proof of account \w+ \(a stale or foreign root\)$/,
    ],
    [
      "a stale validity root (V2 address)",
      validityStaleRoot,
      ["validity-proofs/v2-account-and-address"],
      /^result\.value\.addresses\.0\.root: not the root of \w+'s proof of address \w+ \(a stale or foreign root\)$/,
    ],
    [
      "a new-address proof call whose low element is not the validity proof's",
      lowElementMoved,
      ["validity-proofs/v1-accounts-then-addresses"],
      /^result\.value\.leafIndices\.1: not the lowElementLeafIndex of \w+'s proof of address \w+$/,
    ],
    [
      "two roots for one (tree, rootSeq) across two calls",
      twoRootsPerSeq(),
      ["account-proofs/v1-state-tree", "account-proofs/v1-output-queue", "account-proofs/multiple-in-input-order"],
      /^account-proofs\/[\w-]+ result\.value(\.\d+)?\.root differs from the root account-proofs\/[\w-]+ result\.value(\.\d+)?\.root answered for the same tree \w+ at the same rootSeq \d+ \(one root per tree and rootSeq across the run\)$/,
    ],
  ];
  it.each(cases.map(([name, defect, globs, message]) => ({ name, defect, globs, message })))(
    "$name",
    async ({ defect, globs, message }) => {
      const summary = await runAgainst(defect, globs);
      expect(summary.results.length).toBeGreaterThan(0);
      expect(summary.passed).toBe(false);
      const fails = proofsOf(summary, "fail");
      expect(fails.map(({ f }) => f.message)).toContainEqual(expect.stringMatching(message));
      // Only the proofs check sees these defects: the answers still match the spec.
      const others = summary.results.flatMap((r) => r.findings.filter((f) => f.status === "fail" && f.check !== "proofs"));
      expect(others).toEqual([]);
      for (const { f } of fails) if (/does not fold/.test(f.message)) expect(f.expected).not.toBe(f.actual);
    },
    60_000,
  );
});

describe("on hand-made answers", () => {
  const proof = () => handlers.getCompressedAccountProof({ hash: profile.knownHash }, ctx) as { context: unknown; value: any };

  it("names the values: the root expected and the one the proof folds to", async () => {
    const good = await proof();
    const bad = structuredClone(good);
    bad.value.proof[0] = flipBit(bad.value.proof[0]);
    const [f] = proofFindings(bad);
    expect(f).toMatchObject({ check: "proofs", status: "fail", expected: JSON.stringify(good.value.root) });
    expect(f!.actual).toMatch(/^"[1-9A-HJ-NP-Za-km-z]{32,44}"$/);
    expect(proofFindings(good)).toEqual([
      { check: "proofs", status: "pass", message: "1 Merkle proof folds to its root (Poseidon); one root per tree and rootSeq (1)" },
    ]);
  });

  it("judges alike with the run's remembered folds: a bad proof after good ones of the same tree still fails", async () => {
    const good = await proof();
    const bad = structuredClone(good);
    bad.value.proof[0] = flipBit(bad.value.proof[0]);
    const run = new RootLedger();
    expect(proofFindings(good, run.hash2)).toEqual(proofFindings(good));
    expect(proofFindings(bad, run.hash2)).toEqual(proofFindings(bad));
    expect(proofFindings(bad, run.hash2)[0]).toMatchObject({ status: "fail", expected: JSON.stringify(good.value.root) });
    const [a, b] = [12345678901234567890n, 98765432109876543210n];
    expect(run.hash2(a, b)).toBe(hash2(a, b));
    expect(run.hash2(b, a)).toBe(hash2(b, a));
    expect(run.hash2(a, b)).not.toBe(run.hash2(b, a));
  });

  it("refuses a hostile proof (200,000 siblings of 10,000-character text) without decoding any of it", async () => {
    const good = (await proof()).value;
    const huge = { ...good, proof: Array.from({ length: 200_000 }, () => "z".repeat(10_000)) };
    expect(proofFindings({ value: huge })[0]!.message).toBe("result.value.proof has 200000 siblings: not a tree height of Light Protocol's (26, 32, 40)");
    const long = { ...good, proof: good.proof.map(() => "z".repeat(1_000_000)) };
    expect(proofFindings({ value: long })[0]!.message).toMatch(/^result\.value\.proof\.0 .* is not 32 bytes of base58$/s);
  });

  it("fails a proof of a length no tree has, and proofs of one tree of different lengths", async () => {
    const good = (await proof()).value;
    const short = { ...good, proof: good.proof.slice(0, 25) };
    expect(proofFindings({ value: short })[0]!.message).toBe("result.value.proof has 25 siblings: not a tree height of Light Protocol's (26, 32, 40)");
    const longer = { ...good, proof: [...good.proof, ...good.proof.slice(0, 6)] };
    const messages = proofFindings({ value: [good, longer] }).map((f) => f.message);
    expect(messages).toContain(`result.value.1.proof has 32 siblings but result.value.0.proof of the same tree ${good.merkleTree} has 26`);
  });

  it("fails a sibling that is not a field element or not 32 bytes", async () => {
    const good = (await proof()).value;
    const notField = { ...good, proof: ["JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG", ...good.proof.slice(1)] }; // 0xff…ff
    expect(proofFindings({ value: notField })[0]!.message).toMatch(/^result\.value\.proof\.0 ".*" is not a BN254 field element$/);
    const notBytes = { ...good, proof: ["abc", ...good.proof.slice(1)] };
    expect(proofFindings({ value: notBytes })[0]!.message).toBe('result.value.proof.0 "abc" is not 32 bytes of base58');
  });

  it("notes an address already in the tree (Photon proves its predecessor) without failing", async () => {
    const address = dataset.addresses.find((a) => !a.queued && a.tree === profile.trees.addressV1)!.address;
    const answer = await handlers.getMultipleNewAddressProofs([address], ctx);
    const findings = proofFindings(answer);
    expect(findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(findings).toContainEqual(expect.objectContaining({ status: "skip", note: true, message: expect.stringMatching(/is already in the tree/) }));
  });

  it("checks proofs by index: zero root and rootSeq 0", () => {
    const byIndex = { proof: [], root: "11111111111111111111111111111111", leafIndex: 3, hash: profile.knownHash, rootSeq: 0, proveByIndex: true };
    expect(proofFindings({ value: [byIndex] })[0]).toMatchObject({ status: "pass", message: expect.stringMatching(/1 by index without a proof/) });
    expect(proofFindings({ value: [{ ...byIndex, rootSeq: 5 }] })[0]).toMatchObject({
      status: "fail",
      message: "result.value.0 proves by index with no proof: its rootSeq must be 0",
    });
  });

  it(`folds at most ${MAX_FOLDS} proofs per answer and says how many it left`, async () => {
    const good = (await proof()).value;
    const findings = proofFindings({ value: Array.from({ length: MAX_FOLDS + 3 }, () => good) });
    expect(findings.map((f) => f.status)).toEqual(["pass", "skip"]);
    expect(findings[0]!.message).toMatch(new RegExp(`^${MAX_FOLDS} Merkle proofs fold`));
    expect(findings[1]!.message).toBe(`3 more proofs were not folded (at most ${MAX_FOLDS} per answer)`);
  });

  it("fails validity-proof roots of one tree that disagree, or that are none of the answer's own proofs' roots", async () => {
    const v1 = (await handlers.getValidityProof({ hashes: [profile.knownHash] }, ctx)).value;
    const twice = {
      ...v1,
      roots: [v1.roots[0], flipBit(v1.roots[0])],
      rootIndices: [v1.rootIndices[0], v1.rootIndices[0]],
      leafIndices: [1, 2],
      leaves: [v1.leaves[0], v1.leaves[0]],
      merkleTrees: [v1.merkleTrees[0], v1.merkleTrees[0]],
    };
    expect(proofFindings({ value: twice }).map((f) => f.message)).toContain(
      `result.value.roots.1 and result.value.roots.0 prove against the same tree ${v1.merkleTrees[0]} with different roots or root indexes`,
    );
    const own = (await proof()).value;
    const both = { proofs: [own], validity: { ...v1, roots: [flipBit(v1.roots[0])] } };
    expect(proofFindings(both).map((f) => f.message)).toContainEqual(
      expect.stringMatching(/^result\.validity\.roots\.0: root ".*" is none of the roots this answer's own proofs of tree/),
    );
  });

  it("finds nothing to say about an answer without proofs", async () => {
    expect(proofFindings(await handlers.getCompressedAccount({ hash: profile.knownHash }, ctx))).toEqual([]);
    expect(proofFindings(null)).toEqual([]);
  });
});

describe("the run-wide root ledger and the proof methods of the table", () => {
  it("keeps one root per (tree, rootSeq) in a run, and a new run starts with none", () => {
    const run = new RootLedger();
    expect(run.record("tree", 7, "rootA", "case-a result.value.root")).toBeNull();
    expect(run.record("tree", 7n, "rootA", "case-b result.value.root")).toBeNull();
    expect(run.record("tree", 7, "rootB", "case-c result.value.root")).toEqual({ root: "rootA", where: "case-a result.value.root" });
    expect(run.record("tree", 8, "rootB", "case-c")).toBeNull();
    expect(run.record("other", 7, "rootB", "case-d")).toBeNull();
    expect(new RootLedger().record("tree", 7, "rootB", "case-e")).toBeNull();
  });

  it("picks the follow-up methods by their params' shape, never by name", () => {
    const m = proofMethods(specMethods);
    expect(m.accounts).toHaveLength(2);
    expect(m.addresses).toHaveLength(1);
    expect(m.addressesWithTrees).toHaveLength(1);
    for (const name of [...m.accounts, ...m.addresses, ...m.addressesWithTrees]) expect(specMethods[name]!.paramShape!.type).toBe("array");
    expect(proofMethods({})).toEqual({ accounts: [], addresses: [], addressesWithTrees: [] });
  });
});

describe("check FILE (captured traffic)", () => {
  const dir = useScratch("proofs-check");
  const file = join(dir, "proofs.jsonl");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps one root per (tree, rootSeq) across the file's exchanges: a second answer folding to another root fails", async () => {
    const params = { hash: profile.knownHash };
    const result = await handlers.getCompressedAccountProof(params, ctx);
    const defect = twoRootsPerSeq();
    const first = defect.wire!({ jsonrpc: "2.0", id: 1, result: structuredClone(result) });
    const second = defect.wire!({ jsonrpc: "2.0", id: 2, result: structuredClone(result) });
    const line = (id: number, response: unknown) => stringifyJson({ request: { jsonrpc: "2.0", id, method: "getCompressedAccountProof", params }, response });
    writeFileSync(file, `${line(1, first)}\n${line(2, second)}\n`);
    const [ok, bad] = (await checkFile({ file })).results;
    expect(ok!.status).toBe("pass");
    expect(bad!.findings.filter((f) => f.status === "fail")).toEqual([
      expect.objectContaining({
        check: "proofs",
        message: expect.stringMatching(/result\.value\.root differs from the root .* answered for the same tree .* at the same rootSeq/),
      }),
    ]);
  });

  it("applies the proofs check offline: a correct proof passes, a flipped sibling fails", async () => {
    const params = { hash: profile.knownHash };
    const result = await handlers.getCompressedAccountProof(params, ctx);
    const broken = structuredClone(result);
    broken.value.proof[5] = flipBit(broken.value.proof[5]);
    const line = (id: number, r: unknown) =>
      stringifyJson({ request: { jsonrpc: "2.0", id, method: "getCompressedAccountProof", params }, response: { jsonrpc: "2.0", result: r, id } });
    writeFileSync(file, `${line(1, result)}\n${line(2, broken)}\n`);
    const summary = await checkFile({ file });
    const [ok, bad] = summary.results;
    expect(ok!.status).toBe("pass");
    expect(ok!.findings).toContainEqual(expect.objectContaining({ check: "proofs", status: "pass" }));
    expect(bad!.status).toBe("fail");
    expect(bad!.findings.filter((f) => f.status === "fail")).toEqual([
      expect.objectContaining({ check: "proofs", message: expect.stringMatching(/^result\.value\.proof does not fold to result\.value\.root/) }),
    ]);
  });
});
