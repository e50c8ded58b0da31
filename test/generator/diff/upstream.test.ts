/** The real upstream specs (0.44.0 per-method folder → 0.50.0 combined file → 0.51.2) and our own spec. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSpecs, render } from "../../../generator/diff/index.js";
import { ourSpec, root, upstream } from "../../helpers/paths.js";
import { find } from "./support.js";

const v044 = join(upstream, "0.44.0");
const v050 = join(upstream, "0.50.0", "api.yaml");

describe("diff upstream 0.44.0 → 0.50.0", async () => {
  const report = await diffSpecs(v044, v050, {}, root);

  it("reads both layouts and names both versions", () => {
    expect([report.old.version, report.old.methods, report.new.version, report.new.methods]).toEqual(["0.44.0", 23, "0.50.0", 36]);
  });

  it("finds the 13 methods 0.50.0 added and none removed", () => {
    expect(report.summary.methodsRemoved).toEqual([]);
    expect(report.summary.methodsAdded).toEqual([
      "getBatchAddressUpdateInfo",
      "getCompressedAccountProofV2",
      "getCompressedAccountV2",
      "getCompressedAccountsByOwnerV2",
      "getCompressedMintTokenHolders",
      "getCompressedTokenAccountsByDelegateV2",
      "getCompressedTokenAccountsByOwnerV2",
      "getCompressedTokenBalancesByOwnerV2",
      "getMultipleCompressedAccountProofsV2",
      "getMultipleCompressedAccountsV2",
      "getQueueElements",
      "getTransactionWithCompressionInfoV2",
      "getValidityProofV2",
    ]);
    expect(report.changes.filter((c) => c.kind === "method-added").every((c) => c.class === "breaking-servers")).toBe(true);
  });

  it("reports Account.seq made optional at every method returning an Account", () => {
    const seq = report.changes.filter((c) => c.kind === "field-optional" && c.path.endsWith(".seq"));
    expect(seq.every((c) => c.via === "Account" && c.class === "breaking-clients")).toBe(true);
    expect(seq.map((c) => c.method)).toEqual(
      expect.arrayContaining(["getCompressedAccount", "getCompressedAccountsByOwner", "getMultipleCompressedAccounts", "getTransactionWithCompressionInfo"]),
    );
  });

  it("reports getValidityProof's dropped newAddresses param", () => {
    const c = find(report, "getValidityProof", "params.newAddresses", "field-removed");
    expect([c.before, c.class]).toEqual(["SerializablePubkey[]", "breaking-clients"]);
  });

  it("sees Context.slot turn from a plain integer into uint64 (values may now arrive as bigint)", () => {
    const c = find(report, "getCompressedAccount", "result.context.slot", "format-changed");
    expect([c.before, c.after, c.bigint, c.class]).toEqual(["none", "uint64", "added", "breaking-both"]);
    expect(find(report, "getIndexerSlot", "result", "format-changed").bigint).toBe("added");
  });

  it("sees Limit go from int64 to uint64 in every paginated method's params", () => {
    const c = find(report, "getCompressedAccountsByOwner", "params.limit", "format-changed");
    expect([c.after, c.via, c.effect, c.class]).toEqual(["uint64", "Limit", "wider", "breaking-servers"]);
  });

  it("renders every format, and the other way round (0.50.0 → 0.44.0) too, without failing", async () => {
    for (const format of ["text", "markdown", "json"] as const) expect(render(report, format).length).toBeGreaterThan(1000);
    const back = await diffSpecs(v050, v044, { includeDocs: true }, root);
    expect(back.summary.methodsRemoved).toHaveLength(13);
    expect(back.changes.filter((c) => c.kind === "method-removed").every((c) => c.class === "breaking-clients")).toBe(true);
  });
});

describe("diff of our spec", () => {
  it("against itself: no changes, with or without docs", async () => {
    for (const includeDocs of [false, true]) {
      const report = await diffSpecs(ourSpec, ourSpec, { includeDocs }, root);
      expect(report.changes).toEqual([]);
      expect(render(report, "text")).toContain("no changes in meaning");
    }
  });

  it("from upstream 0.50.0: every method but the stale one, and what our stricter schemas change", async () => {
    const report = await diffSpecs(v050, ourSpec, {}, root);
    expect(report.summary.methodsRemoved).toEqual(["getBatchAddressUpdateInfo"]);
    expect(report.summary.methodsAdded).toEqual(["getAccountInterface", "getMultipleAccountInterfaces", "getQueueInfo"]);
    // Photon always sends Option fields as explicit null: required and nullable in our spec.
    expect(find(report, "getCompressedAccount", "result.value.seq", "field-required").class).toBe("breaking-servers");
    expect(find(report, "getCompressedAccount", "result.value.seq", "nullable-added").class).toBe("breaking-clients");
    expect(find(report, "getCompressedAccount", "params.hash", "format-changed").after).toBe("hash");
  });
});

describe("the bump of our spec, 0.50.0 → 0.51.2 (docs/spec-bumps.md, worked example)", () => {
  const ours050 = join(root, "spec", "versions", "0.50.0.yaml");
  const up0512 = join(upstream, "0.51.2", "api.yaml");

  it("step 1: ours at 0.50.0 against upstream 0.51.2", async () => {
    const report = await diffSpecs(ours050, up0512, {}, root);
    expect([report.old.version, report.old.methods, report.new.version, report.new.methods]).toEqual(["0.50.0", 7, "0.51.2", 38]);
    expect(report.summary.methodsAdded).toHaveLength(31);
    expect(report.summary.methodsRemoved).toEqual([]);
    expect(report.changes).toHaveLength(125);
  });

  it("the result: only methods added, no change in meaning to the seven (their tlv text aside)", async () => {
    const report = await diffSpecs(ours050, ourSpec, {}, root);
    expect(report.summary.methodsAdded).toHaveLength(31);
    expect(report.summary.methodsRemoved).toEqual([]);
    expect(report.summary.methodsChanged).toEqual([]);
    expect(report.changes.every((c) => c.kind === "method-added" && c.class === "breaking-servers")).toBe(true);
    const docs = await diffSpecs(ours050, ourSpec, { includeDocs: true }, root);
    expect(docs.changes.filter((c) => c.kind !== "method-added").map((c) => [c.method, c.path])).toEqual([
      ["getCompressedTokenAccountsByOwner", "result.value.items[].tokenData"],
    ]);
  });

  it("ours against upstream 0.51.2: the same 38 methods, each settled more strictly", async () => {
    const report = await diffSpecs(up0512, ourSpec, {}, root);
    expect(report.summary.methodsAdded).toEqual([]);
    expect(report.summary.methodsRemoved).toEqual([]);
    expect(report.summary.methodsChanged).toHaveLength(36);
    // Photon serialises `compressionInfo` (camelCase); its OpenAPI text says `compression_info`.
    expect(find(report, "getTransactionWithCompressionInfo", "result.compressionInfo", "field-added")).toBeDefined();
  });
});

describe("diff upstream 0.50.0 → 0.51.2 (the release operators run)", async () => {
  const report = await diffSpecs(v050, join(upstream, "0.51.2", "api.yaml"), {}, root);

  it("names both versions and counts their methods", () => {
    expect([report.old.version, report.old.methods, report.new.version, report.new.methods]).toEqual(["0.50.0", 36, "0.51.2", 38]);
  });

  it("finds the methods 0.51.2 added and removed, and the ones whose schemas changed", () => {
    expect(report.summary.methodsAdded).toEqual(["getAccountInterface", "getMultipleAccountInterfaces", "getQueueInfo"]);
    expect(report.summary.methodsRemoved).toEqual(["getBatchAddressUpdateInfo"]);
    expect(report.summary.methodsChanged).toEqual(["getQueueElements", "getValidityProof", "getValidityProofV2"]);
    expect(report.changes.find((c) => c.kind === "method-removed")?.class).toBe("breaking-clients");
  });
});
