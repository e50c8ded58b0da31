/** Account proofs, V1 and V2, from the stored leaves (get_compressed_account_proof, get_multiple_compressed_account_proofs). */
import type { AccountRecord } from "../records.js";
import { type AccountProof, type AccountProofV2, treeContextOf, type WrittenAs, ZERO_HASH } from "./answers.js";
import { holdsOwnHash, type LeafProof } from "./forest-parts.js";
import { indexProofOf, type LeafSource, leafProofsOf, storedRows } from "./leaf-lookup.js";
import { recordNotFound } from "./photon-errors.js";
import { base58ToBigint } from "./poseidon.js";
import type { WrittenProofs } from "./written-proofs.js";

/**
 * One account proof, V1 (get_compressed_account_proof/v1.rs:43-64). `written` (a listener's
 * `CallContext.written`) is handed each proof written for this answer with its JSON text.
 */
export function accountProofV1(source: LeafSource, proofs: WrittenProofs, hash: string, written?: WrittenAs): AccountProof {
  const [proof] = leafProofsOf(source, [hash]);
  if (!proof) throw recordNotFound("Account not found");
  return proofs.write(proof, written);
}

/** Account proofs by leaf hash, V1, in request order (get_multiple_compressed_account_proofs/mod.rs:26-47); `written` as in `accountProofV1`. */
export function accountProofsV1(source: LeafSource, proofs: WrittenProofs, hashes: readonly string[], written?: WrittenAs): AccountProof[] {
  const leafProofs = leafProofsOf(source, hashes);
  const out: AccountProof[] = new Array(leafProofs.length);
  for (let i = 0; i < leafProofs.length; i++) out[i] = proofs.write(leafProofs[i] as LeafProof, written);
  return out;
}

/**
 * One account proof, V2 (get_compressed_account_proof/v2.rs:56-133): by its leaf when a stored leaf
 * equals the hash, else by its leaf index (`proveByIndex: true`), answering whatever leaf is there as `hash`.
 */
export function accountProofV2(source: LeafSource, hash: string): AccountProofV2 {
  const account = source.accountsByHash().get(hash);
  if (!account) throw recordNotFound("Account not found");
  const record = source.stateRecord(account.tree);
  // A stored leaf equal to the hash: the account's own leaf when it holds its hash (no decoding), else
  // whatever row holds that value (storedRows, the general lookup).
  const byLeaf = holdsOwnHash(record, account) || storedRows(source, [base58ToBigint(hash)]).length > 0;
  const proof = byLeaf ? leafProofsOf(source, [hash])[0] : indexProofOf(source, record, account.leafIndex);
  if (!proof) throw recordNotFound("Account not found by hash");
  return {
    proof: proof.merkle.proofBase58(proof.leafIndex),
    root: proof.merkle.rootBase58(),
    leafIndex: proof.leafIndex,
    hash: proof.merkle.leafBase58(proof.leafIndex),
    rootSeq: proof.rootSeq,
    proveByIndex: !byLeaf,
    treeContext: treeContextOf(record),
  };
}

/**
 * Account proofs, V2, in request order (get_multiple_compressed_account_proofs/v2.rs:24-159):
 * every hash must be an account (spent or not); one whose hash is not a stored leaf answers
 * `proveByIndex: true` with no proof, the zero root and rootSeq 0.
 */
export function accountProofsV2(source: LeafSource, hashes: readonly string[]): AccountProofV2[] {
  const byHash = source.accountsByHash();
  const found = new Set(hashes.filter((h) => byHash.has(h)));
  if (found.size !== hashes.length) throw recordNotFound("Some accounts not found");
  const stored = new Set(storedRows(source, hashes.map(base58ToBigint)).map((row) => row.leaf));
  const byLeaf = hashes.filter((h) => stored.has(base58ToBigint(h)));
  const proofs = new Map(leafProofsOf(source, byLeaf).map((p) => [p.merkle.leafBase58(p.leafIndex), p]));
  return hashes.map((hash) => {
    const account = byHash.get(hash) as AccountRecord;
    const treeContext = treeContextOf(source.stateRecord(account.tree));
    const proof = proofs.get(hash);
    return proof
      ? {
          proof: proof.merkle.proofBase58(proof.leafIndex),
          root: proof.merkle.rootBase58(),
          leafIndex: proof.leafIndex,
          hash,
          rootSeq: proof.rootSeq,
          proveByIndex: false,
          treeContext,
        }
      : { proof: [], root: ZERO_HASH, leafIndex: account.leafIndex, hash, rootSeq: 0, proveByIndex: true, treeContext };
  });
}
