/** The inputs of validity proofs (V1 and V2): roots, root indexes, leaves, contexts and the prover's request. */
import { RpcError } from "@photon-indexer-kit/runtime";
import type { AccountRecord, TreeRecord } from "../records.js";
import {
  ADDRESS_TREE_V1,
  type AccountProofInputs,
  type AddressProofOptions,
  type AddressWithTree,
  type MerkleContextV2,
  merkleContextOf,
  type ValidityProofInputsV1,
  type ValidityProofInputsV2,
  ZERO_HASH,
} from "./answers.js";
import type { LeafProof, LowElementProof } from "./forest-parts.js";
import { debugList, unexpected } from "./photon-errors.js";
import { bigintToBase58 } from "./poseidon.js";
import { proverRequest } from "./prover-request.js";

/** What the validity proofs read of a forest. */
export interface ProofSource {
  accountsByHash(): ReadonlyMap<string, AccountRecord>;
  stateRecord(key: string): TreeRecord;
  isInOutputQueue(account: AccountRecord): boolean;
  leafProofs(hashes: readonly string[]): LeafProof[];
  lowElementProofs(items: readonly AddressWithTree[], options: AddressProofOptions): LowElementProof[];
  requireMetadata(tree: string): void;
  rootIndex(rootSeq: number, tree: string, fallbackTree?: string): number;
  treeInfo(key: string): TreeRecord | undefined;
}

/**
 * Everything of a V1 validity proof but the Groth16 proof, in Photon's order of checks
 * (get_validity_proof/v1.rs:58-221); spent accounts are proved too, as Photon does not filter them.
 */
export function validityInputsV1(
  source: ProofSource,
  request: {
    hashes?: readonly string[];
    newAddresses?: readonly string[];
    newAddressesWithTrees?: readonly AddressWithTree[];
    /** Photon's MAX_ADDRESSES for the address proofs (v1.rs:100-110), checked after the account proofs. */
    maxAddresses?: number;
  },
): ValidityProofInputsV1 {
  const hashes = request.hashes ?? [];
  const newAddresses = request.newAddresses ?? [];
  let withTrees = request.newAddressesWithTrees ?? [];
  if (hashes.length === 0 && newAddresses.length === 0 && withTrees.length === 0)
    throw RpcError.validation("No hashes or new addresses provided for proof generation");
  if (withTrees.length > 0 && newAddresses.length > 0) throw RpcError.validation("Cannot provide both newAddresses and newAddressesWithTree");
  if (newAddresses.length > 0) withTrees = newAddresses.map((address) => ({ address, tree: ADDRESS_TREE_V1 }));
  const accounts = hashes.length > 0 ? source.leafProofs(hashes) : [];
  const addresses = withTrees.length > 0 ? source.lowElementProofs(withTrees, { maxAddresses: request.maxAddresses }) : [];
  const first = accounts[0]?.record.tree ?? (addresses[0] as LowElementProof).merkleTree;
  source.requireMetadata(first);
  const prover = proverRequest(accounts, addresses);
  return {
    roots: [...accounts.map((a) => a.merkle.rootBase58()), ...addresses.map((a) => a.tree.rootBase58())],
    rootIndices: [
      ...accounts.map((a) => source.rootIndex(a.rootSeq, a.record.tree, first)),
      ...addresses.map((a) => source.rootIndex(a.rootSeq, a.merkleTree, first)),
    ],
    leafIndices: [...accounts.map((a) => a.leafIndex), ...addresses.map((a) => a.low.leafIndex)],
    leaves: [...accounts.map((a) => a.merkle.leafBase58(a.leafIndex)), ...addresses.map((a) => bigintToBase58(a.address))],
    merkleTrees: [...accounts.map((a) => a.record.tree), ...addresses.map((a) => a.merkleTree)],
    prover,
  };
}

/**
 * Everything of a V2 validity proof but the Groth16 proof (get_validity_proof/v2.rs:130-344), or null for
 * a request with neither hashes nor addresses (Photon's default response). Queued accounts prove by index.
 */
export function validityInputsV2(
  source: ProofSource,
  request: {
    hashes?: readonly string[];
    newAddressesWithTrees?: readonly AddressWithTree[];
    /** Photon's MAX_ADDRESSES for the address proofs (v2.rs:224-234), checked after the account proofs. */
    maxAddresses?: number;
  },
): ValidityProofInputsV2 | null {
  const hashes = request.hashes ?? [];
  const withTrees = request.newAddressesWithTrees ?? [];
  if (hashes.length === 0 && withTrees.length === 0) return null;
  const byHash = source.accountsByHash();
  const position = new Map<string, number>();
  hashes.forEach((h, i) => {
    if (!position.has(h)) position.set(h, i);
  });
  const found = [...position.keys()].filter((h) => byHash.get(h)?.spent === false);
  if (found.length !== hashes.length)
    throw RpcError.validation(
      `Not all requested account hashes exist or are available (might be spent). Requested: ${debugList(hashes)}, Found in DB: ${debugList(found)}`,
    );
  const byIndex = new Map<string, AccountProofInputs>();
  const full: string[] = [];
  for (const hash of hashes) {
    const account = byHash.get(hash) as AccountRecord;
    const record = source.stateRecord(account.tree);
    if (source.isInOutputQueue(account))
      byIndex.set(hash, {
        hash,
        root: ZERO_HASH,
        rootIndex: { rootIndex: 0, proveByIndex: true },
        leafIndex: account.leafIndex,
        merkleContext: merkleContextOf(record),
      });
    else full.push(hash);
  }
  const accounts = full.length > 0 ? source.leafProofs(full) : [];
  const addresses = withTrees.length > 0 ? source.lowElementProofs(withTrees, { maxAddresses: request.maxAddresses }) : [];
  const first = accounts[0]?.record.tree ?? addresses[0]?.merkleTree ?? withTrees[0]?.tree ?? (byHash.get(hashes[0] as string) as AccountRecord).tree;
  source.requireMetadata(first);
  if (accounts.length === 0 && addresses.length === 0)
    return { accounts: hashes.map((h) => byIndex.get(h) as AccountProofInputs), addresses: [], prover: null };
  const prover = proverRequest(accounts, addresses);
  const context = (key: string): MerkleContextV2 => {
    const info = source.treeInfo(key);
    if (!info) throw unexpected();
    return merkleContextOf(info);
  };
  const proved = new Map<string, AccountProofInputs>();
  full.forEach((hash, i) => {
    const a = accounts[i] as LeafProof;
    proved.set(hash, {
      hash: a.merkle.leafBase58(a.leafIndex),
      root: a.merkle.rootBase58(),
      rootIndex: { rootIndex: source.rootIndex(a.rootSeq, a.record.tree, first), proveByIndex: false },
      leafIndex: a.leafIndex,
      merkleContext: context(a.record.tree),
    });
  });
  return {
    accounts: hashes.map((h) => (byIndex.get(h) ?? proved.get(h)) as AccountProofInputs),
    addresses: addresses.map((a) => ({
      address: bigintToBase58(a.address),
      root: a.tree.rootBase58(),
      rootIndex: source.rootIndex(a.rootSeq, a.merkleTree, first) % 65536,
      merkleContext: context(a.merkleTree),
    })),
    prover,
  };
}
