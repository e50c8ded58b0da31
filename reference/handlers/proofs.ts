/**
 * Merkle proofs of accounts (V1, V2) and non-inclusion proofs of new addresses, from the forest
 * (reference/trees/forest.ts computes what Photon 0.51.2 answers; spec/DECISIONS.md rows 58, 59,
 * 66, 67). The forest's answers already carry Photon's field names, order and error texts; these
 * handlers add the context and the list caps of the method table.
 *
 * The list methods take their params as a JSON array (row 58): the cap sits under the key `""`
 * of the table's `maxItems`.
 */
import { RpcError } from "@photon-indexer-kit/runtime";
import { ADDRESS_TREE_V1 } from "../trees/forest.js";
import { contextOf, type Family, maxItems, type Reference } from "./support.js";

/** get_multiple_compressed_account_proofs/mod.rs:31-37 and v2.rs:31-37: checked before the slot is read. */
function capHashes(count: number, most: number): void {
  if (count > most) throw RpcError.validation(`Too many hashes requested ${count}. Maximum allowed: ${most}`);
}

const accountProofHandlers = ((ref) => ({
  // get_compressed_account_proof/v1.rs:43-64: the slot, then the leaf proof.
  getCompressedAccountProof(params, _facts, call) {
    const context = contextOf(ref);
    return { context, value: ref.forest.accountProof(params.hash, call.written) };
  },

  // get_compressed_account_proof/v2.rs:56-133.
  getCompressedAccountProofV2(params) {
    const context = contextOf(ref);
    return { context, value: ref.forest.accountProofV2(params.hash) };
  },
})) satisfies Family;

const multipleProofHandlers = ((ref) => ({
  getMultipleCompressedAccountProofs(params, facts, call) {
    capHashes(params.length, maxItems(facts, ""));
    const context = contextOf(ref);
    // The listener writes each proof's text as the forest joined it (`CallContext.written`).
    return { context, value: ref.forest.accountProofs(params, call.written) };
  },

  getMultipleCompressedAccountProofsV2(params, facts) {
    capHashes(params.length, maxItems(facts, ""));
    const context = contextOf(ref);
    return { context, value: ref.forest.accountProofsV2(params) };
  },
})) satisfies Family;

const addressProofHandlers = ((ref) => ({
  // get_multiple_new_address_proofs.rs:177-193: every address proves against ADDRESS_TREE_V1; the
  // helper checks emptiness, then the cap (MAX_ADDRESSES, 50-71), after the slot is read.
  getMultipleNewAddressProofs(params, facts) {
    const context = contextOf(ref);
    const items = params.map((address) => ({ address, tree: ADDRESS_TREE_V1 }));
    return { context, value: ref.forest.newAddressProofs(items, { maxAddresses: maxItems(facts, "") }) };
  },

  // get_multiple_new_address_proofs.rs:199-216, with the queue check (`true`).
  getMultipleNewAddressProofsV2(params, facts) {
    const context = contextOf(ref);
    const items = params.map(({ address, tree }) => ({ address, tree }));
    return { context, value: ref.forest.newAddressProofs(items, { maxAddresses: maxItems(facts, "") }) };
  },
})) satisfies Family;

/** The family: account proofs one by one and several at once, and new-address proofs. */
export const proofHandlers = (ref: Reference) => ({ ...accountProofHandlers(ref), ...multipleProofHandlers(ref), ...addressProofHandlers(ref) });
