/**
 * Poseidon over BN254 with circom's parameters, as Photon hashes its trees (src/ingester/persist/mod.rs:589-595,
 * src/ingester/persist/indexed_merkle_tree/helpers.rs:73-102 at 366a15b), via `@railgun-community/poseidon-hash-wasm`'s
 * synchronous Node build. Values are `bigint`s; an input not below the field modulus is a dataset error,
 * as light-poseidon refuses it (the wasm wrapper would silently reduce it).
 */
import { decodeBase58, encodeBase58, internalError } from "@photon-indexer-kit/runtime";
import { poseidon } from "@railgun-community/poseidon-hash-wasm/pkg-cjs/poseidon_hash_wasm.js";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import { DEFAULT_MEMO_FILE, loadPoseidonMemo, type PoseidonMemo, PoseidonRecording } from "./poseidon-memo.js";

/** The BN254 scalar field modulus r: Poseidon's inputs and outputs are below it. */
export const FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/**
 * The value of the highest element of an indexed (address) Merkle tree, 2^248 - 1: the upper end
 * of the initial range (Photon `HIGHEST_ADDRESS_PLUS_ONE`, src/ingester/persist/indexed_merkle_tree/mod.rs:19-24).
 * Addresses are below it (light-protocol derives them with `hash_to_bn254_field_size_be`: first byte 0).
 */
export const HIGHEST_ADDRESS_PLUS_ONE = 452312848583266388373324160190187140051835877600158453279131187530910662655n;

/**
 * Levels of zero values Photon keeps: `ZERO_BYTES` has MAX_HEIGHT + 1 = 41 entries
 * (src/ingester/persist/persisted_state_tree.rs:218-222), enough for the 40 levels of a batched address tree.
 */
export const MAX_HEIGHT = 40;

const U256 = 1n << 256n;

let calls = 0;

/** How many Poseidon permutations this process has run (for tests that check laziness); an output found in the memo runs none. */
export function hashCount(): number {
  return calls;
}

/** The outputs written at build time (poseidon-memo.ts): undefined until the first hash, null where there are none. */
let memo: PoseidonMemo | null | undefined;
let recording: PoseidonRecording | null = null;

/** The memo the hashes here consult: the built package's by default; `path` another file, null none (tests). */
export function usePoseidonMemo(path: string | null = DEFAULT_MEMO_FILE): PoseidonMemo | null {
  memo = path === null || process.env.PHOTON_POSEIDON_MEMO === "off" ? null : loadPoseidonMemo(path);
  return memo;
}

/** Records every call hashed from now on (with no memo consulted, until `usePoseidonMemo` is called again), for the build to write the memo; `stop` ends it and returns what was recorded. */
export function recordPoseidon(): { stop(): PoseidonRecording } {
  const rec = new PoseidonRecording();
  memo = null;
  recording = rec;
  return {
    stop: () => {
      if (recording === rec) recording = null;
      return rec;
    },
  };
}

/** Poseidon of the inputs' hex texts (canonical: lower case, no leading zeros), from the memo or the library. */
function poseidonOf(arity: 2 | 3, hex: string[]): bigint {
  if (memo === undefined) usePoseidonMemo();
  const text = memo || recording ? `${arity}:${hex.join(":")}` : "";
  const known = memo ? memo.get(text) : undefined;
  if (known !== undefined) return known;
  calls++;
  const out = BigInt(`0x${poseidon(hex)}`);
  recording?.add(text, out);
  return out;
}

function field(value: bigint): bigint {
  if (value < 0n || value >= FIELD_MODULUS)
    throw new ReferenceIndexerError(
      RefErrorCode.DATASET_INCONSISTENT,
      `0x${value.toString(16).padStart(64, "0")} is not a BN254 field element: Poseidon (light-poseidon) refuses it`,
    );
  return value;
}

/** Whether a value can be hashed (is below the field modulus). */
export function isFieldElement(value: bigint): boolean {
  return value >= 0n && value < FIELD_MODULUS;
}

/** Poseidon of two field elements: a Merkle tree's parent of (left, right), a V2 address leaf. */
export function hash2(a: bigint, b: bigint): bigint {
  return poseidonOf(2, [field(a).toString(16), field(b).toString(16)]);
}

/** Poseidon of three field elements: a V1 address leaf, a nullifier, a step of a two-input hash chain. */
export function hash3(a: bigint, b: bigint, c: bigint): bigint {
  return poseidonOf(3, [field(a).toString(16), field(b).toString(16), field(c).toString(16)]);
}

const zeros: bigint[] = [0n];

/**
 * The root of an empty subtree of `level` levels: 0 for a leaf, then Poseidon(z, z) per level
 * (Photon `ZERO_BYTES[level]`). Computed on first use and cached.
 */
export function zeroHash(level: number): bigint {
  if (!Number.isInteger(level) || level < 0 || level > MAX_HEIGHT) throw internalError(RefErrorCode.INTERNAL, `no zero value for level ${level}`);
  while (zeros.length <= level) {
    const below = zeros[zeros.length - 1] as bigint;
    zeros.push(hash2(below, below));
  }
  return zeros[level] as bigint;
}

/** A 32-byte big-endian value as an unsigned integer. */
export function bytesToBigint(bytes: Uint8Array): bigint {
  if (bytes.length !== 32) throw internalError(RefErrorCode.INTERNAL, `expected 32 bytes, got ${bytes.length}`);
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`);
}

/** An unsigned integer below 2^256 as 32 big-endian bytes. */
export function bigintToBytes(value: bigint): Uint8Array {
  if (value < 0n || value >= U256) throw internalError(RefErrorCode.INTERNAL, `${value} does not fit 32 bytes`);
  return Uint8Array.from(Buffer.from(value.toString(16).padStart(64, "0"), "hex"));
}

/** Base58 of a 32-byte value (a hash or a public key) as an unsigned integer. */
export function base58ToBigint(text: string): bigint {
  const bytes = decodeBase58(text);
  if (bytes === undefined || bytes.length !== 32) throw internalError(RefErrorCode.INTERNAL, `${JSON.stringify(text)} is not base58 of 32 bytes`);
  return bytesToBigint(bytes);
}

/** The base58 text of a value below 2^256 as 32 big-endian bytes. */
export function bigintToBase58(value: bigint): string {
  return encodeBase58(bigintToBytes(value));
}

/** `0x` and 64 hex digits: how Photon writes values for the prover (prover/helpers.rs:44-55). */
export function bigintToHex(value: bigint): string {
  return `0x${value.toString(16).padStart(64, "0")}`;
}

/**
 * light-protocol's `create_hash_chain_from_slice` (program-libs/hasher/src/hash_chain.rs:23-32):
 * 0 for none, the value itself for one, else Poseidon(chain, next) left to right.
 */
export function hashChain(values: readonly bigint[]): bigint {
  if (values.length === 0) return 0n;
  let chain = values[0] as bigint;
  for (let i = 1; i < values.length; i++) chain = hash2(chain, values[i] as bigint);
  return chain;
}

/**
 * light-protocol's `create_two_inputs_hash_chain` (program-libs/hasher/src/hash_chain.rs:46-70):
 * 0 for none, Poseidon(first[0], second[0]), then Poseidon(chain, first[i], second[i]).
 */
export function twoInputsHashChain(first: readonly bigint[], second: readonly bigint[]): bigint {
  if (first.length !== second.length) throw internalError(RefErrorCode.INTERNAL, `hash chain inputs of ${first.length} and ${second.length} values`);
  if (first.length === 0) return 0n;
  let chain = hash2(first[0] as bigint, second[0] as bigint);
  for (let i = 1; i < first.length; i++) chain = hash3(chain, first[i] as bigint, second[i] as bigint);
  return chain;
}

/**
 * A transaction's hash for batched inputs (light-protocol program-libs/compressed-account/src/tx_hash.rs:9-26):
 * the hash chain of [0, chain(inputs), chain(outputs), slot].
 */
export function transactionHash(inputs: readonly bigint[], outputs: readonly bigint[], slot: number): bigint {
  return hashChain([0n, hashChain(inputs), hashChain(outputs), BigInt(slot)]);
}

/**
 * The nullifier a batched state tree stores for a spent account: Poseidon(hash, leaf index, tx hash)
 * (program-libs/compressed-account/src/nullifier.rs:7-17; Photon persisted_batch_event/helpers.rs:43-82).
 */
export function nullifier(accountHash: bigint, leafIndex: number, txHash: bigint): bigint {
  return hash3(accountHash, BigInt(leafIndex), txHash);
}
