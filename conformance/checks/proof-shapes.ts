/**
 * The shapes of proofs in answers, shared by the proofs check (proofs.ts) and the agreement of
 * validity proofs with the separate proof calls (proof-agreement.ts): a proof is recognised by its
 * fields wherever it stands in a result, never by the method that answered it.
 */
import { decodeBase58Uint256, isObject } from "@photon-indexer-kit/runtime";

/**
 * Root history sizes by Photon's u16 tree type (1 StateV1, 2 AddressV1, 3 StateV2, 4 AddressV2;
 * light-protocol cli/accounts). A V1 validity proof names no type: it is held to the largest.
 */
export const ROOT_HISTORY: Readonly<Record<number, number>> = { 1: 2400, 2: 2400, 3: 200, 4: 200 };
export const LARGEST_HISTORY = 2400;

export type Obj = Record<string, unknown>;

/** A 32-byte base58 value as a big-endian integer, or null when it is not one. */
export function int32(value: unknown): bigint | null {
  return typeof value === "string" ? (decodeBase58Uint256(value) ?? null) : null;
}

export const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

export const isSeq = (v: unknown): v is number | bigint => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) || (typeof v === "bigint" && v >= 0n);

/**
 * Proof-bearing objects collected per answer at most: the largest valid answer, a proof list method
 * asked for 1000 hashes (the spec's x-max-items), carries 1000. The rest are counted, not judged.
 */
export const MAX_PROOFS = 1000;

/** What one answer carries, with the dotted path (from `result`) of each proof-bearing object. */
export interface Found {
  accounts: { path: string; o: Obj }[];
  addresses: { path: string; o: Obj }[];
  validity: { path: string; o: Obj }[];
  /** Proof-bearing objects past MAX_PROOFS: counted, not collected. */
  left: number;
}

/** `.value.items.3` from its steps. */
function dotted(steps: readonly (string | number)[]): string {
  let out = "";
  for (const s of steps) out += `.${s}`;
  return out;
}

/**
 * Walks the answer keeping the path as a stack of steps; a dotted path is written only for what is
 * found (most nodes carry no proof). Proofs stand a few levels down: the walk goes 12 deep at most.
 */
function collect(node: unknown, steps: (string | number)[], found: Found, depth: number): void {
  if (depth > 12) return;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (v === null || typeof v !== "object") continue;
      steps.push(i);
      collect(v, steps, found, depth + 1);
      steps.pop();
    }
    return;
  }
  if (!isObject(node)) return;
  const list =
    "compressedProof" in node
      ? found.validity
      : "lowerRangeAddress" in node && "higherRangeAddress" in node && "lowElementLeafIndex" in node && "proof" in node
        ? found.addresses
        : "proof" in node && "root" in node && "leafIndex" in node && "hash" in node
          ? found.accounts
          : null;
  if (list !== null) {
    if (found.accounts.length + found.addresses.length + found.validity.length < MAX_PROOFS) list.push({ path: dotted(steps), o: node });
    else found.left++;
  } else
    for (const k in node) {
      if (!Object.hasOwn(node, k)) continue;
      const v = node[k];
      if (v === null || typeof v !== "object") continue;
      steps.push(k);
      collect(v, steps, found, depth + 1);
      steps.pop();
    }
}

/** The tree a proof names: `merkleTree` (V1 shapes) or `treeContext.tree` / `merkleContext.tree` (V2 shapes). */
export function treeOf(o: Obj): string | null {
  if (typeof o.merkleTree === "string") return o.merkleTree;
  for (const k of ["treeContext", "merkleContext"]) {
    const c = o[k];
    if (isObject(c) && typeof c.tree === "string") return c.tree;
  }
  return null;
}

/** The proof-bearing objects of a result, found by their shape. */
export function collectProofs(result: unknown): Found {
  const found: Found = { accounts: [], addresses: [], validity: [], left: 0 };
  collect(result, [], found, 0);
  return found;
}

/**
 * The root history a proof's tree keeps: by the tree type it names (`treeContext.treeType`, a V2
 * shape), else by its height (26: a V1 tree, 2400 roots; 32 and 40: batched trees, 200).
 */
export function historyOf(treeType: unknown, height: number | undefined): number | undefined {
  if (typeof treeType === "number" && ROOT_HISTORY[treeType] !== undefined) return ROOT_HISTORY[treeType];
  if (height === 26) return ROOT_HISTORY[1];
  if (height === 32 || height === 40) return ROOT_HISTORY[3];
  return undefined;
}

/**
 * The (tree, rootSeq, root) triples of an answer's proofs with the path of each (proofs by index,
 * whose zero root stands for no root, and malformed ones left out): what the run-wide ledger records.
 */
export function rootsOf(found: Found): { tree: string; rootSeq: number | bigint; root: string; path: string }[] {
  const out: { tree: string; rootSeq: number | bigint; root: string; path: string }[] = [];
  for (const { path, o } of [...found.accounts, ...found.addresses]) {
    const tree = treeOf(o);
    if (tree === null || o.proveByIndex === true || !isSeq(o.rootSeq) || typeof o.root !== "string" || int32(o.root) === null) continue;
    out.push({ tree, rootSeq: o.rootSeq, root: o.root, path });
  }
  return out;
}
