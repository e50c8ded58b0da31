/** The request Photon sends its prover, from the proofs a validity proof combines. */
import { RpcError } from "@photon-indexer-kit/runtime";
import type { ProverRequest } from "./answers.js";
import type { LeafProof, LowElementProof } from "./forest-parts.js";
import { defineLazy } from "../lazy.js";
import { unexpected } from "./photon-errors.js";
import { bigintToHex, isFieldElement, twoInputsHashChain } from "./poseidon.js";

/**
 * Photon's `generate_proof` up to the prover call (prover/prove.rs:52-133): its checks run here, in order;
 * its values (helpers.rs:44-55, 97-177) are computed on first read, which reads the trees as they are then:
 * read before the next `Forest.apply`, in the same turn.
 */
export function proverRequest(accounts: readonly LeafProof[], addresses: readonly LowElementProof[]): ProverRequest {
  const stateHeight = accounts[0]?.merkle.height ?? 0;
  if (!accounts.every((a) => a.merkle.height === stateHeight)) throw RpcError.validation("All state trees for account proofs must have the same height");
  const addressHeight = addresses[0]?.tree.height ?? 0;
  if (!addresses.every((a) => a.tree.height === addressHeight)) throw RpcError.validation("All address trees for new address proofs must have the same height");
  const request: ProverRequest = {
    circuitType: accounts.length > 0 && addresses.length > 0 ? "combined" : accounts.length > 0 ? "inclusion" : "non-inclusion",
  };
  if (stateHeight !== 0) request.stateTreeHeight = stateHeight;
  if (addressHeight !== 0) request.addressTreeHeight = addressHeight;
  // light-batched-merkle-tree DEFAULT_BATCH_STATE_TREE_HEIGHT / DEFAULT_BATCH_ADDRESS_TREE_HEIGHT (constants.rs:5-7).
  if (stateHeight === 32 || addressHeight === 40) {
    checkPublicInputs(accounts, addresses);
    defineLazy(request, "publicInputHash", () => bigintToHex(publicInputHash(accounts, addresses)));
  }
  if (accounts.length > 0)
    defineLazy(request, "inputCompressedAccounts", () =>
      accounts.map((a) => ({
        root: bigintToHex(a.merkle.root()),
        pathIndex: a.leafIndex,
        pathElements: a.merkle.proof(a.leafIndex).map(bigintToHex),
        leaf: bigintToHex(a.merkle.leaf(a.leafIndex)),
      })),
    );
  if (addresses.length > 0)
    defineLazy(request, "newAddresses", () =>
      addresses.map((a) => ({
        root: bigintToHex(a.tree.root()),
        value: bigintToHex(a.address),
        pathIndex: a.low.leafIndex,
        pathElements: a.tree.proof(a.low.leafIndex).map(bigintToHex),
        leafLowerRangeValue: bigintToHex(a.low.value),
        leafHigherRangeValue: bigintToHex(a.low.nextValue),
        nextIndex: a.low.nextIndex,
      })),
    );
  return request;
}

/**
 * The errors of Photon's `get_public_input_hash` (prover/helpers.rs:97-177), before it hashes: a
 * value Poseidon refuses is its "Internal server error"; no proof at all is "No proofs provided"
 * (both hash chains 0, which a non-empty chain, a Poseidon output, is not).
 */
function checkPublicInputs(accounts: readonly LeafProof[], addresses: readonly LowElementProof[]): void {
  for (const a of accounts) if (!isFieldElement(a.merkle.leaf(a.leafIndex)) || !isFieldElement(a.merkle.root())) throw unexpected();
  for (const a of addresses) if (!isFieldElement(a.address) || !isFieldElement(a.tree.root())) throw unexpected();
  if (accounts.length === 0 && addresses.length === 0) throw RpcError.validation("No proofs provided");
}

/** Photon's `get_public_input_hash` (prover/helpers.rs:97-177), once `checkPublicInputs` passed. */
function publicInputHash(accounts: readonly LeafProof[], addresses: readonly LowElementProof[]): bigint {
  const inclusion = twoInputsHashChain(
    accounts.map((a) => a.merkle.root()),
    accounts.map((a) => a.merkle.leaf(a.leafIndex)),
  );
  const nonInclusion = twoInputsHashChain(
    addresses.map((a) => a.tree.root()),
    addresses.map((a) => a.address),
  );
  if (inclusion !== 0n && nonInclusion !== 0n) return twoInputsHashChain([inclusion], [nonInclusion]);
  if (nonInclusion !== 0n) return nonInclusion;
  return inclusion;
}
