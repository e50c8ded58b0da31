/**
 * Broken variants of the reference indexer's proofs, one defect each, as wire edits for
 * startBroken (broken-servers.ts): every edit keeps the answer valid against the spec (32-byte
 * base58 values, integers in range), so only the proofs check can see it.
 */
import { poseidon2 } from "poseidon-lite/poseidon2";
import { decodeBase58, encodeBase58 } from "../../../runtime/index.js";
import type { Defect } from "./broken-servers.js";

/** A 32-byte base58 value with one bit of its last byte flipped (still below the field modulus). */
export function flipBit(value: string): string {
  const bytes = decodeBase58(value)!;
  bytes[31]! ^= 1;
  return encodeBase58(bytes);
}

/** Applies `edit` to every object of a success reply's result that satisfies `is`. */
function editEach(is: (o: any) => boolean, edit: (o: any, n: number) => void): (body: unknown) => unknown {
  return (body: any) => {
    let n = 0;
    const visit = (node: any): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === "object") {
        if (is(node)) edit(node, n++);
        else Object.values(node).forEach(visit);
      }
    };
    if (body && typeof body === "object" && !Array.isArray(body) && "result" in body) visit(body.result);
    return body;
  };
}

const accountProof = (o: any) => Array.isArray(o.proof) && o.proof.length > 0 && "leafIndex" in o && "hash" in o && !("lowerRangeAddress" in o);
const addressProof = (o: any) => "lowerRangeAddress" in o && "higherRangeAddress" in o;

/** The third sibling of every account proof has one bit flipped. */
export const siblingFlipped: Defect = { wire: editEach(accountProof, (o) => (o.proof[2] = flipBit(o.proof[2]))) };

/** The root of every second account proof (the 2nd, 4th, …) is altered: a stale root a proof no longer folds to. */
export const staleRoot: Defect = { wire: editEach(accountProof, (o, n) => n % 2 === 1 && (o.root = flipBit(o.root))) };

/** Every account proof's root is altered (so a single proof's answer is caught too). */
export const alteredRoot: Defect = { wire: editEach(accountProof, (o) => (o.root = flipBit(o.root))) };

/** New-address proofs whose low element's range does not bracket the address: lower and higher swapped. */
export const rangeSwapped: Defect = {
  wire: editEach(addressProof, (o) => ([o.lowerRangeAddress, o.higherRangeAddress] = [o.higherRangeAddress, o.lowerRangeAddress])),
};

/** The low element's `nextIndex` changed: the range brackets, but the V1 leaf Poseidon(lower, nextIndex, higher) no longer folds. */
export const nextIndexChanged: Defect = { wire: editEach(addressProof, (o) => (o.nextIndex += 1)) };

/** Validity proofs' root indexes moved past the root history (V1 lists + 2400, V2 entries + 200). */
export const rootIndexOutOfHistory: Defect = {
  wire: editEach(
    (o) => "compressedProof" in o,
    (o) => {
      if (Array.isArray(o.rootIndices)) o.rootIndices = o.rootIndices.map((i: number) => i + 2400);
      for (const a of o.accounts ?? []) if (!a.rootIndex.proveByIndex) a.rootIndex.rootIndex += 200;
      for (const a of o.addresses ?? []) a.rootIndex += 200;
    },
  ),
};

const validity = (o: any) => "compressedProof" in o;

/** Validity proofs' root indexes moved by one within the root history: no longer the separate proof's rootSeq % history. */
export const rootIndexOffByOne: Defect = {
  wire: editEach(validity, (o) => {
    if (Array.isArray(o.rootIndices)) o.rootIndices = o.rootIndices.map((i: number) => (i + 1) % 2400);
    for (const a of o.accounts ?? []) if (!a.rootIndex.proveByIndex) a.rootIndex.rootIndex = (a.rootIndex.rootIndex + 1) % 200;
    for (const a of o.addresses ?? []) a.rootIndex = (a.rootIndex + 1) % 200;
  }),
};

/** Validity proofs state a stale root (one bit flipped) where the separate proof calls answer the current one. */
export const validityStaleRoot: Defect = {
  wire: editEach(validity, (o) => {
    if (Array.isArray(o.roots)) o.roots = o.roots.map(flipBit);
    for (const a of [...(o.accounts ?? []), ...(o.addresses ?? [])]) if (!a.rootIndex?.proveByIndex) a.root = flipBit(a.root);
  }),
};

/** The new-address proof calls answer another low element index than the validity proof's (every low element moved by one). */
export const lowElementMoved: Defect = { wire: editEach(addressProof, (o) => (o.lowElementLeafIndex += 1)) };

/** The BN254 field element of a 32-byte base58 value. */
const int = (v: string): bigint => decodeBase58(v)!.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
const base58 = (n: bigint): string => {
  const bytes = new Uint8Array(32);
  for (let i = 31, v = n; i >= 0; i--, v >>= 8n) bytes[i] = Number(v & 0xffn);
  return encodeBase58(bytes);
};

/**
 * Every second answer carrying account proofs proves them against another root at the same
 * rootSeq: the top sibling changed and the root recomputed, so each answer is consistent in
 * itself (its proofs fold, one root per tree) and only answers compared across the run disagree.
 */
export function twoRootsPerSeq(): Defect {
  let answers = 0;
  return {
    wire: (body: any) => {
      const proofs: any[] = [];
      editEach(accountProof, (o) => proofs.push(o))(body);
      if (proofs.length > 0 && answers++ % 2 === 1)
        for (const o of proofs) {
          o.proof[o.proof.length - 1] = flipBit(o.proof[o.proof.length - 1]);
          let node = int(o.hash);
          let index = o.leafIndex as number;
          for (const s of o.proof as string[]) {
            node = index % 2 === 0 ? poseidon2([node, int(s)]) : poseidon2([int(s), node]);
            index = Math.floor(index / 2);
          }
          o.root = base58(node);
        }
      return body;
    },
  };
}
