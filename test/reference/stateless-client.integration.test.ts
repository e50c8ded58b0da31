/**
 * The ecosystem's published client, @lightprotocol/stateless.js 0.23.3, against the reference
 * indexer: every public compression method of its `Rpc`, called as an application calls it, each
 * result and its JSON-RPC traffic checked against the dataset (checks in stateless-client/).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRpc, featureFlags, LIGHT_TOKEN_PROGRAM_ID, Rpc, TreeType } from "@lightprotocol/stateless.js";
import { beforeAll, describe, expect, it } from "vitest";
import { TOKEN_PROGRAM } from "../../reference/index.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { TREE_TYPE } from "./stateless/expected.js";
import { PHOTON_ZERO_BYTES, zeroHash } from "./stateless/merkle.js";
import { accountChecks } from "./stateless-client/accounts.js";
import { type Check, dataset, useRpc } from "./stateless-client/context.js";
import { indexerChecks } from "./stateless-client/indexer.js";
import { proofChecks } from "./stateless-client/proofs.js";
import { signatureChecks } from "./stateless-client/signatures.js";
import { tokenChecks } from "./stateless-client/tokens.js";

/** One check per public compression method of Rpc, named after it. */
const CHECKS: Readonly<Record<string, Check>> = { ...indexerChecks, ...accountChecks, ...tokenChecks, ...signatureChecks, ...proofChecks };

/** Client methods that need more than the compression endpoint, each with why it is not tested here. */
const OUT_OF_SCOPE: Readonly<Record<string, string>> = {
  getCachedActiveStateTreeInfo: "deprecated no-op: resolves undefined without any request",
  getCachedActiveStateTreeInfos: "deprecated no-op: resolves undefined without any request",
  doFetch:
    "reads the mainnet/devnet state-tree lookup tables from the Solana RPC (getAccountInfo of the LUT accounts); getStateTreeInfos calls it only for a non-loopback URL",
  getAccountInfoInterface:
    "Solana RPC getAccountInfo beside getCompressedAccount (tested) of the V2-derived address; indexer errors are swallowed by Promise.allSettled",
  getSignaturesForAddressInterface:
    "Solana RPC getSignaturesForAddress merged with getCompressionSignaturesForAddress (tested); indexer errors are swallowed by Promise.allSettled",
  getSignaturesForOwnerInterface:
    "Solana RPC getSignaturesForAddress merged with getCompressionSignaturesForOwner (tested); indexer errors are swallowed by Promise.allSettled",
  getTokenAccountBalanceInterface:
    "Solana RPC getTokenAccountBalance added to getCompressedTokenBalancesByOwner (tested); indexer errors are swallowed by Promise.allSettled",
  getBalanceInterface: "Solana RPC getBalance, else getCompressedBalanceByOwner (tested); indexer errors are swallowed by Promise.allSettled",
};

describe("@lightprotocol/stateless.js 0.23.3", () => {
  it("is the 0.23.3 build, sending the V2 endpoints", () => {
    const pkg = JSON.parse(readFileSync(join(root, "node_modules/@lightprotocol/stateless.js/package.json"), "utf8")) as { version: string };
    expect(pkg.version).toBe("0.23.3");
    expect(featureFlags.isV2()).toBe(true);
  });

  it("every public method of Rpc is checked here or listed as out of scope", () => {
    const own = Object.getOwnPropertyNames(Rpc.prototype).filter(
      (name) => name !== "constructor" && typeof Object.getOwnPropertyDescriptor(Rpc.prototype, name)?.value === "function",
    );
    const checked = Object.keys(CHECKS);
    const out = Object.keys(OUT_OF_SCOPE);
    expect(
      checked.filter((m) => out.includes(m)),
      "both checked and out of scope",
    ).toEqual([]);
    expect([...checked, ...out].sort()).toEqual([...own].sort());
    for (const why of Object.values(OUT_OF_SCOPE)) expect(why.length).toBeGreaterThan(20);
  });

  it("poseidon-lite reproduces Photon's zero values (the proofs below fold with it)", () => {
    for (const [level, hex] of Object.entries(PHOTON_ZERO_BYTES)) expect(zeroHash(Number(level)).toString(16).padStart(64, "0")).toBe(hex);
    expect(TreeType.AddressV2).toBe(TREE_TYPE.AddressV2);
    expect(TOKEN_PROGRAM).toBe(LIGHT_TOKEN_PROGRAM_ID.toBase58());
  });
});

describe("@lightprotocol/stateless.js 0.23.3 against the reference indexer", () => {
  const reference = useReferenceIndexer({ data: dataset });
  beforeAll(() => {
    useRpc(createRpc(reference().url, reference().url));
  });

  for (const [method, check] of Object.entries(CHECKS)) it(method, check.run, check.timeout);
});
