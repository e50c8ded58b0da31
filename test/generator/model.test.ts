import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../generator/load.js";
import { buildModel } from "../../generator/model.js";
import { extendedSpec, ourSpec, upstream } from "../helpers/paths.js";

describe("model of our spec", async () => {
  const model = buildModel(await loadSpec(ourSpec));
  const byName = Object.fromEntries(model.methods.map((m) => [m.name, m]));

  it("has the 38 paths of Photon 0.51.2 with their paths", () => {
    expect(model.methods).toHaveLength(38);
    expect(model.methods.map((m) => m.name).slice(0, 7)).toEqual([
      "getCompressedAccount",
      "getMultipleCompressedAccounts",
      "getCompressedAccountsByOwner",
      "getCompressedTokenAccountsByOwner",
      "getCompressedTokenBalancesByOwner",
      "getCompressionSignaturesForTokenOwner",
      "getIndexerSlot",
    ]);
    expect(model.methods.map((m) => m.name)).toEqual(
      expect.arrayContaining(["getValidityProofV2", "getQueueInfo", "getAccountInterface", "getMultipleAccountInterfaces"]),
    );
    expect(byName.getCompressedAccount!.path).toBe("/getCompressedAccount");
    expect(model.version).toBe("0.51.2");
  });

  it("reads x-aliases into the method table, and keeps them out of `extensions`", () => {
    expect(byName.getCompressedAccountBalance!.aliases).toEqual(["getCompressedBalance"]);
    expect(model.methods.filter((m) => m.aliases.length > 0).map((m) => m.name)).toEqual(["getCompressedAccountBalance"]);
    expect(byName.getCompressedAccountBalance!.extensions).toEqual({});
  });

  it("reads x-registered: false on the two methods Photon 0.51.2 does not register, true elsewhere, kept out of `extensions`", () => {
    expect(model.methods.filter((m) => !m.registered).map((m) => m.name)).toEqual(["getAccountInterface", "getMultipleAccountInterfaces"]);
    expect(byName.getAccountInterface!.extensions).toEqual({});
  });

  it("reads the cap of params that are a JSON array under the key ''", () => {
    for (const name of [
      "getMultipleCompressedAccountProofs",
      "getMultipleCompressedAccountProofsV2",
      "getMultipleNewAddressProofs",
      "getMultipleNewAddressProofsV2",
    ]) {
      expect(byName[name]!.maxItems).toEqual({ "": 1000 });
      expect(byName[name]!.requiredParams).toEqual([]);
      expect(byName[name]!.hasParams).toBe(true);
    }
    expect(byName.getValidityProof!.maxItems).toEqual({ newAddressesWithTrees: 1000 });
  });

  it("reads the pagination of the 0.51.2 lists: holders by balance then owner, descending; balances V2 under `items`", () => {
    expect(byName.getCompressedMintTokenHolders!.pagination!.order).toEqual([
      { field: "balance", direction: "desc", compare: "integer" },
      { field: "owner", direction: "desc", compare: "base58-bytes" },
    ]);
    expect(byName.getCompressedTokenBalancesByOwnerV2!.pagination!.items).toBe("items");
    expect(byName.getCompressedTokenAccountsByDelegate!.filters).toEqual({ delegate: "tokenData.delegate", mint: "tokenData.mint" });
    // No cursor in its result, so not paginated in the table (its cursor is still described in x-cursor).
    expect(byName.getLatestNonVotingSignatures!.pagination).toBeNull();
    expect(byName.getLatestNonVotingSignatures!.extensions["x-cursor"]).toEqual(expect.any(String));
    const paginated = model.methods.filter((m) => m.pagination).map((m) => m.name);
    expect(paginated).toHaveLength(13);
  });

  it("finds the slot where 0.51.2 results keep it", () => {
    expect(byName.getQueueInfo!.slot).toBe("slot");
    expect(byName.getQueueElements!.slot).toBe("context.slot");
    expect(byName.getQueueElements!.hasContext).toBe(false);
    expect(byName.getTransactionWithCompressionInfo!.slot).toBeNull();
    expect(byName.getIndexerHealth!.hasParams).toBe(false);
    expect(byName.getIndexerHealth!.slot).toBeNull();
  });

  it("reads required and optional params", () => {
    expect(byName.getCompressedTokenAccountsByOwner!.requiredParams).toEqual(["owner"]);
    expect([...byName.getCompressedTokenAccountsByOwner!.optionalParams].sort()).toEqual(["cursor", "limit", "mint"]);
    expect(byName.getIndexerSlot!.hasParams).toBe(false);
    expect(byName.getIndexerSlot!.hasContext).toBe(false);
  });

  it("reads pagination, including token_balances and the documented order", () => {
    expect(byName.getCompressedTokenBalancesByOwner!.pagination).toEqual({
      items: "token_balances",
      cursor: "cursor",
      limit: "limit",
      order: [{ field: "mint", direction: "asc", compare: "base58-bytes" }],
      maxLimit: 1000,
      defaultLimit: 1000,
    });
    expect(byName.getCompressionSignaturesForTokenOwner!.pagination!.order![0]).toEqual({ field: "slot", direction: "desc", compare: "integer" });
    expect(byName.getMultipleCompressedAccounts!.pagination).toBeNull();
  });

  it("reads the spec facts of x-slot, x-identity, x-filters, x-lookup, x-sums and x-max-items", () => {
    expect(byName.getCompressedAccountsByOwner!.slot).toBe("context.slot");
    expect(byName.getIndexerSlot!.slot).toBe("");
    expect(byName.getCompressedTokenAccountsByOwner!.identity).toBe("account.hash");
    expect(byName.getCompressedTokenBalancesByOwner!.identity).toBeNull();
    expect(byName.getCompressedTokenAccountsByOwner!.filters).toEqual({ owner: "tokenData.owner", mint: "tokenData.mint" });
    expect(byName.getCompressedAccount!.lookup).toEqual({
      items: null,
      by: [
        { param: "address", field: "address" },
        { param: "hash", field: "hash" },
      ],
    });
    expect(byName.getMultipleCompressedAccounts!.lookup!.items).toBe("items");
    expect(byName.getCompressedTokenBalancesByOwner!.sums).toEqual({
      method: "getCompressedTokenAccountsByOwner",
      params: ["owner"],
      key: { field: "mint", of: "tokenData.mint" },
      sum: { field: "balance", of: "tokenData.amount" },
    });
    expect(byName.getCompressedAccountsByOwner!.maxItems).toEqual({ filters: 5 });
    expect(byName.getMultipleCompressedAccounts!.maxItems).toEqual({ hashes: 1000, addresses: 1000 });
  });

  it("keeps the extensions it reads out of `extensions` (no pagination block twice)", () => {
    for (const m of model.methods) {
      expect(Object.keys(m.extensions).filter((k) => k !== "x-cursor")).toEqual([]);
    }
    expect(model.methods.filter((m) => m.pagination).every((m) => typeof m.extensions["x-cursor"] === "string")).toBe(true);
    expect(byName.getCompressedAccountsByOwner!.extensions["x-cursor"]).toEqual(expect.any(String));
  });
});

describe("model of the real upstream specs", () => {
  it("reads 0.50.0 (one document, a path per method) and infers pagination", async () => {
    const model = buildModel(await loadSpec(join(upstream, "0.50.0", "api.yaml")));
    expect(model.methods).toHaveLength(36);
    const balances = model.methods.find((m) => m.name === "getCompressedTokenBalancesByOwner")!;
    expect(balances.pagination).toMatchObject({ items: "token_balances", cursor: "cursor", limit: "limit", order: null });
    // Result taken from inside the JSON-RPC envelope of the 200 response.
    expect(balances.result.typeName).toBe("GetCompressedTokenBalancesByOwnerResult");
  });

  it("reads 0.44.0 (a folder of per-method documents on path /), merging shared components", async () => {
    const model = buildModel(await loadSpec(join(upstream, "0.44.0")));
    expect(model.methods).toHaveLength(23);
    expect(new Set(model.methods.map((m) => m.path))).toEqual(new Set(["/"]));
    // 0.44.0's 200 response is the bare result, not an envelope.
    const slot = model.methods.find((m) => m.name === "getIndexerSlot")!;
    expect(slot.result.normalized).toEqual({ type: "integer", integerLiteral: true });
    expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("model of a non-Photon spec", async () => {
  const model = buildModel(await loadSpec(extendedSpec));
  const byName = Object.fromEntries(model.methods.map((m) => [m.name, m]));

  it("takes names from the method enum, falling back to operationId", () => {
    expect(Object.keys(byName)).toEqual(["listEntries", "getHealth", "getEntry", "sumBalances"]);
  });

  it("reads a declared pagination with another items field, cursor and limit param", () => {
    expect(byName.listEntries!.pagination).toEqual({
      items: "entries",
      cursor: "after",
      limit: "pageSize",
      order: [{ field: "sequence", direction: "desc", compare: "integer" }],
      maxLimit: 50,
      defaultLimit: null,
    });
  });

  it("uses the component name for a params $ref, a synthetic name otherwise", () => {
    expect(byName.sumBalances!.params!.typeName).toBe("SumParams");
    expect(byName.getEntry!.params!.typeName).toBe("GetEntryParams");
    expect(byName.getHealth!.params).toBeNull();
  });
});
