/**
 * proofs: the Merkle proofs in an answer, recognised by their fields (spec/DECISIONS.md rows 66-70) and
 * folded with our own Poseidon, independent of the reference's trees. Account proofs fold from `hash`
 * to `root`; new-address proofs bracket their address and fold their low element; one tree at one
 * `rootSeq` has one root, and validity entries' root indexes lie within its root history
 * (get_validity_proof/prover/prove.rs:21-50 at 366a15b). A `compressedProof` is never passed (no
 * verifying key). Work per answer is bounded: MAX_FOLDS, MAX_PROOFS, MAX_VALIDITY_ENTRIES, MAX_FINDINGS_PER_ANSWER.
 */
import { encodeBase58Uint256, isObject } from "@photon-indexer-kit/runtime";
import { BoundedFindings, MAX_FINDINGS_PER_ANSWER } from "../bounded-findings.js";
import { fail, pass, skip, type Finding } from "../results.js";
import { methodInfo } from "../spec-facts.js";
import { expectsResult, show, type Check } from "./check.js";
import { poseidonHash } from "./poseidon.js";
import { agreementFindings } from "./proof-agreement.js";
import { collectProofs, type Found, int32, isIndex, isSeq, LARGEST_HISTORY, MAX_PROOFS, type Obj, ROOT_HISTORY, rootsOf, treeOf } from "./proof-shapes.js";
import { type Hash2, hash2 as plainHash2, type RootLedger } from "./root-ledger.js";

const P = "proofs";

/** Proofs folded per answer at most (each is 26-40 Poseidon calls). */
export const MAX_FOLDS = 16;

/** Validity-proof entries (a root, its index and tree) judged per answer at most; the rest are counted. */
export const MAX_VALIDITY_ENTRIES = 1000;

/** The BN254 scalar field modulus: Poseidon's inputs are below it. */
const FIELD = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** Tree heights of Light Protocol's trees: V1 state and address 26, batched state 32, batched address 40. */
const HEIGHTS: ReadonlySet<number> = new Set([26, 32, 40]);
const MAX_HEIGHT = Math.max(...HEIGHTS);

/** Proof length → address tree version: V1 address trees have 26 levels, batched (V2) ones 40. */
const ADDRESS_VERSION: Readonly<Record<number, 1 | 2>> = { 26: 1, 40: 2 };

/** The placeholder Groth16 proof: a = bytes 1..32, b = 1..64, c = 1..32. */
const PLACEHOLDER = { a: 32, b: 64, c: 32 } as const;

/** Base58 of 32 zero bytes: the zero root a proof by index carries. */
const ZERO = "11111111111111111111111111111111";

/** Folds a leaf up its siblings: Poseidon(node, sibling) where the index bit is 0, Poseidon(sibling, node) where it is 1. */
function fold(hash2: Hash2, leaf: bigint, leafIndex: number, siblings: readonly bigint[]): bigint {
  let node = leaf;
  let index = leafIndex;
  for (const sibling of siblings) {
    node = index % 2 === 0 ? hash2(node, sibling) : hash2(sibling, node);
    index = Math.floor(index / 2);
  }
  return node;
}

/** The siblings of a proof as field elements, or a reason why they are not. */
function siblingsOf(proof: unknown, where: string): bigint[] | string {
  if (!Array.isArray(proof)) return `${where} is not a list`;
  // No tree is deeper than 40: a longer list is refused before any sibling is decoded.
  if (proof.length > MAX_HEIGHT) return `${where} has ${proof.length} siblings: not a tree height of Light Protocol's (26, 32, 40)`;
  const out: bigint[] = [];
  for (let i = 0; i < proof.length; i++) {
    const v = int32(proof[i]);
    if (v === null) return `${where}.${i} ${show(proof[i])} is not 32 bytes of base58`;
    if (v >= FIELD) return `${where}.${i} ${show(proof[i])} is not a BN254 field element`;
    out.push(v);
  }
  return out;
}

class ProofChecker {
  constructor(
    private readonly hash2: Hash2,
    private readonly findings: BoundedFindings,
  ) {}
  private folds = 0;
  private unfolded = 0;
  private folded = 0;
  private byIndex = 0;
  private entries = 0;
  /** Validity-proof entries judged (by index or not), and those past MAX_VALIDITY_ENTRIES, not judged. */
  private entriesJudged = 0;
  private entriesLeft = 0;
  /** tree → proof length seen first, with its path. */
  private readonly heights = new Map<string, { length: number; path: string }>();
  /** tree#rootSeq → root seen first, with its path. */
  private readonly roots = new Map<string, { root: string; path: string }>();
  /** tree → the roots its account and address proofs carry. */
  readonly proofRoots = new Map<string, Set<string>>();
  /** tree → its proofs' roots as a message shows them, rendered once (not once per validity entry). */
  private readonly shownRoots = new Map<string, string>();

  /** Records a failing finding; false, for `return this.bad(…)` in the judgements. */
  private bad(message: string, expected?: string, actual?: string): false {
    this.findings.add(fail(P, message, expected, actual));
    return false;
  }

  /** Length, height consistency, root sharing; then the fold (within the cap). Returns whether the proof may be folded. */
  private common(path: string, o: Obj, leafIndex: unknown, indexField: string): bigint[] | null {
    const root = o.root;
    const tree = treeOf(o);
    const siblings = siblingsOf(o.proof, `result${path}.proof`);
    if (typeof siblings === "string") return this.bad(siblings), null;
    if (!HEIGHTS.has(siblings.length))
      return (
        this.bad(
          `result${path}.proof has ${siblings.length} siblings: not a tree height of Light Protocol's (26, 32, 40)`,
          "26, 32 or 40",
          String(siblings.length),
        ),
        null
      );
    if (!isIndex(leafIndex) || leafIndex >= 2 ** siblings.length)
      return (
        this.bad(`result${path}.${indexField} is not a leaf of a tree of height ${siblings.length}`, `0..${2 ** siblings.length - 1}`, show(leafIndex)), null
      );
    if (int32(root) === null) return this.bad(`result${path}.root is not 32 bytes of base58`, undefined, show(root)), null;
    if (tree !== null) {
      const seen = this.heights.get(tree);
      if (!seen) this.heights.set(tree, { length: siblings.length, path });
      else if (seen.length !== siblings.length)
        this.bad(
          `result${path}.proof has ${siblings.length} siblings but result${seen.path}.proof of the same tree ${tree} has ${seen.length}`,
          String(seen.length),
          String(siblings.length),
        );
      const roots = this.proofRoots.get(tree) ?? new Set<string>();
      roots.add(root as string);
      this.proofRoots.set(tree, roots);
      if (isSeq(o.rootSeq)) {
        const key = `${tree}#${o.rootSeq}`;
        const first = this.roots.get(key);
        if (!first) this.roots.set(key, { root: root as string, path });
        else if (first.root !== root)
          this.bad(
            `result${path}.root differs from result${first.path}.root, a proof of the same tree ${tree} at the same rootSeq ${o.rootSeq}`,
            first.root,
            show(root),
          );
      }
    }
    if (this.folds >= MAX_FOLDS) {
      this.unfolded++;
      return null;
    }
    this.folds++;
    return siblings;
  }

  account(path: string, o: Obj): boolean | undefined {
    if (o.proveByIndex === true && Array.isArray(o.proof) && o.proof.length === 0) {
      // getMultipleCompressedAccountProofsV2's answer for an account still in an output queue (row 66).
      this.byIndex++;
      if (o.root !== ZERO) this.bad(`result${path} proves by index with no proof: its root must be the zero root`, ZERO, show(o.root));
      if (o.rootSeq !== 0 && o.rootSeq !== 0n) this.bad(`result${path} proves by index with no proof: its rootSeq must be 0`, "0", show(o.rootSeq));
      return;
    }
    const siblings = this.common(path, o, o.leafIndex, "leafIndex");
    if (!siblings) return;
    const leaf = int32(o.hash);
    if (leaf === null || leaf >= FIELD) return this.bad(`result${path}.hash is not a 32-byte field element`, undefined, show(o.hash));
    const got = fold(this.hash2, leaf, o.leafIndex as number, siblings);
    if (got !== int32(o.root))
      this.bad(
        `result${path}.proof does not fold to result${path}.root: leaf ${show(o.hash)} at leafIndex ${o.leafIndex} with ${siblings.length} siblings (Poseidon, left where the index bit is 0)`,
        show(o.root),
        show(encodeBase58Uint256(got)),
      );
    else this.folded++;
  }

  address(path: string, o: Obj): boolean | undefined {
    const address = int32(o.address);
    const lower = int32(o.lowerRangeAddress);
    const higher = int32(o.higherRangeAddress);
    if (address === null || lower === null || higher === null)
      return this.bad(
        `result${path}: address, lowerRangeAddress and higherRangeAddress must be 32 bytes of base58`,
        undefined,
        show([o.address, o.lowerRangeAddress, o.higherRangeAddress]),
      );
    if (address === higher && lower < address) {
      // Photon does not refuse an address already in the tree: its low element is its predecessor (forest.ts, newAddressProofs).
      this.findings.add({
        ...skip(P, `result${path}.address ${show(o.address)} is already in the tree (it is its low element's next value): no non-inclusion proof`),
        note: true,
      });
    } else if (!(lower < address && address < higher))
      this.bad(
        `result${path}: the low element's range does not bracket the address (lowerRangeAddress < address < higherRangeAddress, as 32-byte big-endian integers)`,
        `${show(o.lowerRangeAddress)} < ${show(o.address)} < ${show(o.higherRangeAddress)}`,
        lower >= address ? `lowerRangeAddress ${show(o.lowerRangeAddress)} >= address` : `higherRangeAddress ${show(o.higherRangeAddress)} <= address`,
      );
    if (!isIndex(o.nextIndex)) this.bad(`result${path}.nextIndex is not a leaf index`, undefined, show(o.nextIndex));
    const siblings = this.common(path, o, o.lowElementLeafIndex, "lowElementLeafIndex");
    if (!siblings || !isIndex(o.nextIndex)) return;
    const version = ADDRESS_VERSION[siblings.length];
    if (!version)
      return this.bad(
        `result${path}.proof has ${siblings.length} siblings: not an address tree's height (26 for V1, 40 for V2)`,
        "26 or 40",
        String(siblings.length),
      );
    if (lower >= FIELD || higher >= FIELD) return this.bad(`result${path}: the low element's range is not made of field elements`);
    const leaf = version === 1 ? poseidonHash([lower, BigInt(o.nextIndex), higher]) : this.hash2(lower, higher);
    const got = fold(this.hash2, leaf, o.lowElementLeafIndex as number, siblings);
    const formula = version === 1 ? "Poseidon(lowerRangeAddress, nextIndex, higherRangeAddress)" : "Poseidon(lowerRangeAddress, higherRangeAddress)";
    if (got !== int32(o.root))
      this.bad(
        `result${path}.proof does not fold to result${path}.root: the V${version} low element ${formula} at lowElementLeafIndex ${o.lowElementLeafIndex}`,
        show(o.root),
        show(encodeBase58Uint256(got)),
      );
    else this.folded++;
  }

  validity(path: string, o: Obj): boolean | undefined {
    this.compressedProof(`result${path}.compressedProof`, o.compressedProof);
    /** tree → first (root, rootIndex, path) among this answer's validity entries. */
    const first = new Map<string, { root: unknown; rootIndex: unknown; at: string }>();
    /** Whether another entry may be judged; counts it as left out when not. */
    const budget = (): boolean => {
      if (this.entriesJudged >= MAX_VALIDITY_ENTRIES) {
        this.entriesLeft++;
        return false;
      }
      this.entriesJudged++;
      return true;
    };
    const entry = (at: string, tree: string, root: unknown, rootIndex: unknown, history: number, what: string) => {
      this.entries++;
      if (!isIndex(rootIndex) || rootIndex >= history)
        this.bad(
          `${at}: root index ${show(rootIndex)} is not within the root history of ${what} (rootIndex = rootSeq % ${history})`,
          `0..${history - 1}`,
          show(rootIndex),
        );
      const seen = first.get(tree);
      if (!seen) first.set(tree, { root, rootIndex, at });
      else if (seen.root !== root || seen.rootIndex !== rootIndex)
        this.bad(
          `${at} and ${seen.at} prove against the same tree ${tree} with different roots or root indexes`,
          `${show(seen.root)} at ${show(seen.rootIndex)}`,
          `${show(root)} at ${show(rootIndex)}`,
        );
      const proved = this.proofRoots.get(tree);
      if (proved && !proved.has(root as string))
        this.bad(`${at}: root ${show(root)} is none of the roots this answer's own proofs of tree ${tree} fold to`, this.shown(tree, proved), show(root));
    };
    if (Array.isArray(o.roots) && Array.isArray(o.merkleTrees) && Array.isArray(o.rootIndices)) {
      // V1 (CompressedProofWithContext): parallel lists, no tree type.
      const n = o.roots.length;
      if (o.merkleTrees.length !== n || o.rootIndices.length !== n)
        return this.bad(
          `result${path}: roots, rootIndices and merkleTrees must have one entry each per leaf`,
          String(n),
          `${o.rootIndices.length} rootIndices, ${o.merkleTrees.length} merkleTrees`,
        );
      for (let i = 0; i < n; i++) {
        if (!budget()) {
          this.entriesLeft += n - i - 1;
          break;
        }
        entry(`result${path}.roots.${i}`, String(o.merkleTrees[i]), o.roots[i], o.rootIndices[i], LARGEST_HISTORY, "any tree (2400, the largest)");
      }
    }
    for (const [list, v2] of [
      ["accounts", true],
      ["addresses", false],
    ] as const) {
      const items = o[list];
      if (!Array.isArray(items)) continue;
      for (let i = 0; i < items.length; i++) {
        const item: unknown = items[i];
        if (!isObject(item)) continue;
        if (!budget()) {
          this.entriesLeft += items.length - i - 1;
          break;
        }
        const at = `result${path}.${list}.${i}`;
        const tree = treeOf(item);
        const type = isObject(item.merkleContext) ? item.merkleContext.treeType : undefined;
        const history = typeof type === "number" ? ROOT_HISTORY[type] : undefined;
        const index = v2 && isObject(item.rootIndex) ? item.rootIndex.rootIndex : item.rootIndex;
        if (v2 && isObject(item.rootIndex) && item.rootIndex.proveByIndex === true) {
          // An account still in an output queue: root index 0, the zero root (row 69).
          if (index !== 0 || item.root !== ZERO)
            this.bad(`${at} proves by index: its rootIndex must be 0 and its root the zero root`, `0, ${ZERO}`, `${show(index)}, ${show(item.root)}`);
          continue;
        }
        if (tree === null || history === undefined) {
          this.bad(`${at}.merkleContext names no tree or no known tree type`, "treeType 1..4", show(item.merkleContext));
          continue;
        }
        entry(`${at}.root`, tree, item.root, index, history, `a tree of type ${type} (${history} roots)`);
      }
    }
  }

  /** The roots of a tree's proofs as a message shows them, rendered on first use. */
  private shown(tree: string, roots: ReadonlySet<string>): string {
    let text = this.shownRoots.get(tree);
    if (text === undefined) this.shownRoots.set(tree, (text = show([...roots])));
    return text;
  }

  private compressedProof(at: string, proof: unknown): void {
    if (proof === null) return;
    if (
      isObject(proof) &&
      Object.entries(PLACEHOLDER).every(
        ([k, n]) => Array.isArray(proof[k]) && (proof[k] as unknown[]).length === n && (proof[k] as unknown[]).every((b, i) => b === i + 1),
      )
    ) {
      this.findings.add({
        ...skip(
          P,
          `${at} is the placeholder proof (a = 1..32, b = 1..64, c = 1..32), not a Groth16 proof: the target has no prover, nothing of it is verified`,
        ),
        note: true,
      });
      return;
    }
    this.findings.add(skip(P, `${at} is not verified (Groth16 verification needs the circuit's verifying key)`));
  }

  /** `left`: proof-bearing objects of the answer past MAX_PROOFS, not judged. */
  summary(left: number): void {
    const parts: string[] = [];
    if (this.folded > 0)
      parts.push(this.folded === 1 ? "1 Merkle proof folds to its root (Poseidon)" : `${this.folded} Merkle proofs fold to their roots (Poseidon)`);
    if (this.roots.size > 0) parts.push(`one root per tree and rootSeq (${this.roots.size})`);
    if (this.byIndex > 0) parts.push(`${this.byIndex} by index without a proof carry the zero root and rootSeq 0`);
    if (this.entries > 0)
      parts.push(
        `${this.entries} validity-proof roots: one root and root index per tree, root indexes within the root history (rootSeq % 2400 for V1 trees, % 200 for batched ones)`,
      );
    // The closing findings are kept past the findings' bound: they say what the answer's proofs came to.
    if (!this.findings.failed && parts.length > 0) this.findings.keep(pass(P, parts.join("; ")));
    if (this.unfolded > 0)
      this.findings.keep(skip(P, `${this.unfolded} more proof${this.unfolded === 1 ? " was" : "s were"} not folded (at most ${MAX_FOLDS} per answer)`));
    if (left > 0) this.findings.keep(skip(P, `${left} more proof${left === 1 ? " was" : "s were"} not judged (at most ${MAX_PROOFS} per answer)`));
    if (this.entriesLeft > 0)
      this.findings.keep(
        skip(
          P,
          `${this.entriesLeft} more validity-proof entr${this.entriesLeft === 1 ? "y was" : "ies were"} not judged (at most ${MAX_VALIDITY_ENTRIES} per answer)`,
        ),
      );
  }
}

/** Judges the proofs `found` in an answer into `findings`; false when it carries none. */
function judgeProofs(found: Found, hash2: Hash2, findings: BoundedFindings): boolean {
  if (found.accounts.length + found.addresses.length + found.validity.length === 0) return false;
  const checker = new ProofChecker(hash2, findings);
  for (const { path, o } of found.accounts) checker.account(path, o);
  for (const { path, o } of found.addresses) checker.address(path, o);
  for (const { path, o } of found.validity) checker.validity(path, o);
  checker.summary(found.left);
  return true;
}

/** The findings about every proof in a result (none when it carries none); `hash2`: the run's remembered folds, where it has a ledger. */
export function proofFindings(result: unknown, hash2: Hash2 = plainHash2, found: Found = collectProofs(result)): Finding[] {
  const findings = new BoundedFindings(MAX_FINDINGS_PER_ANSWER, "answer");
  return judgeProofs(found, hash2, findings) ? findings.done() : [];
}

/**
 * The run-wide ledger's findings: each (tree, rootSeq, root) of `result` recorded for the target,
 * failing where an earlier answer of the run (another case, or a follow-up call) gave another root.
 */
function ledgerFindings(roots: RootLedger | undefined, found: Found, where: string, findings: BoundedFindings): void {
  if (!roots) return;
  for (const { tree, rootSeq, root, path } of rootsOf(found)) {
    const first = roots.record(tree, rootSeq, root, `${where} result${path}.root`);
    if (first)
      findings.add(
        fail(
          P,
          `${where} result${path}.root differs from the root ${first.where} answered for the same tree ${tree} at the same rootSeq ${rootSeq} (one root per tree and rootSeq across the run)`,
          first.root,
          root,
        ),
      );
  }
}

export const proofsCheck: Check = {
  name: P,
  applies: (c, methods) => expectsResult(c) && methodInfo(c.method, methods) !== undefined,
  async run(ctx) {
    const body = ctx.exchange.body;
    if (!isObject(body) || !("result" in body)) return [];
    const found = collectProofs(body.result);
    const findings = new BoundedFindings(MAX_FINDINGS_PER_ANSWER, "answer");
    if (!judgeProofs(found, ctx.roots?.hash2 ?? plainHash2, findings)) return [];
    ledgerFindings(ctx.roots, found, ctx.testCase.id, findings);
    if (found.validity.length > 0) {
      const agreement = await agreementFindings(ctx, body.result, found.validity);
      findings.addAll(agreement.findings);
      for (const f of agreement.followUps) ledgerFindings(ctx.roots, collectProofs(f.result), `${ctx.testCase.id} (its follow-up ${f.method})`, findings);
    }
    return findings.done();
  },
};
