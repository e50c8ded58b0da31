/**
 * Validity proofs (V1, V2): everything but the Groth16 proof comes from the trees (reference/trees/forest.ts;
 * spec/DECISIONS.md rows 59, 68-70); `compressedProof` is ./prover.ts's placeholder or a real prover's.
 * Results are `{value, context}` in that order (v1.rs:51-56, v2.rs:42-47). The address cap also
 * counts the deprecated `newAddresses` (v1.rs:77-110), checked after the account proofs.
 */
import { contextOf, type Family, maxItems } from "./support.js";
import { type CompressedProof, placeholderProof, prove } from "./prover.js";
import type { ProverRequest } from "../trees/forest.js";

export const validityHandlers = ((ref) => {
  const { forest } = ref;
  const proverUrl = ref.options.proverUrl;
  /** The proof of `request`: forwarded when a prover is configured (a promise), else the placeholder. */
  const proofOf = (request: ProverRequest): CompressedProof | Promise<CompressedProof> =>
    proverUrl === undefined ? placeholderProof() : prove(proverUrl, request);
  return {
    // get_validity_proof/v1.rs:58-221: the checks of the request, the slot, the proofs, the prover.
    getValidityProof(params, facts) {
      const inputs = forest.validityProofV1({
        hashes: params.hashes,
        newAddresses: params.newAddresses,
        newAddressesWithTrees: params.newAddressesWithTrees,
        maxAddresses: maxItems(facts, "newAddressesWithTrees"),
      });
      const context = contextOf(ref);
      const { prover, ...rest } = inputs;
      const answer = (compressedProof: CompressedProof) => ({ value: { compressedProof, ...rest }, context });
      const proof = proofOf(prover);
      return proof instanceof Promise ? proof.then(answer) : answer(proof);
    },

    // get_validity_proof/v2.rs:130-344: neither hashes nor addresses is Photon's default answer
    // (slot 0, no proof) without reading anything; no prover call when every account proves by index.
    getValidityProofV2(params, facts) {
      const inputs = forest.validityProofV2({
        hashes: params.hashes,
        newAddressesWithTrees: params.newAddressesWithTrees,
        maxAddresses: maxItems(facts, "newAddressesWithTrees"),
      });
      if (inputs === null) return { value: { compressedProof: null, accounts: [], addresses: [] }, context: { slot: 0 } };
      const context = contextOf(ref);
      const { accounts, addresses, prover } = inputs;
      const answer = (compressedProof: CompressedProof | null) => ({ value: { compressedProof, accounts, addresses }, context });
      if (prover === null) return answer(null);
      const proof = proofOf(prover);
      return proof instanceof Promise ? proof.then(answer) : answer(proof);
    },
  };
}) satisfies Family;
