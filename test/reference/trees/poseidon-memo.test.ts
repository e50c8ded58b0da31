/**
 * The reference's Poseidon memo (reference/trees/poseidon-memo.ts): outputs recorded from the hash
 * itself are found again for exactly the same inputs and no others; a damaged, foreign or absent
 * file is no memo (every call hashes); `PHOTON_POSEIDON_MEMO=off` turns it off; and the memo the
 * build writes into dist/ holds the default dataset's tree hashes (so it is not stale).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { poseidon2 } from "poseidon-lite/poseidon2";
import { poseidon3 } from "poseidon-lite/poseidon3";
import { afterEach, describe, expect, it } from "vitest";
import { generateDataset } from "../../../reference/dataset.js";
import { Forest } from "../../../reference/trees/forest.js";
import { loadPoseidonMemo, PoseidonRecording } from "../../../reference/trees/poseidon-memo.js";
import { hash2, hash3, hashCount, MAX_HEIGHT, recordPoseidon, usePoseidonMemo, zeroHash } from "../../../reference/trees/poseidon.js";
import { root } from "../../helpers/paths.js";
import { useScratch } from "../../helpers/scratch.js";

const dir = useScratch("poseidon-memo");

afterEach(() => {
  usePoseidonMemo(null);
  delete process.env.PHOTON_POSEIDON_MEMO;
});

/** A memo file of what `calls` hash, recorded from the hash itself. */
function recorded(name: string, calls: () => void): string {
  usePoseidonMemo(null);
  const recording = recordPoseidon();
  calls();
  const path = join(dir, name);
  recording.stop().write(path);
  return path;
}

describe("the reference's Poseidon memo", () => {
  it("answers the recorded calls without hashing, and hashes every other call", () => {
    const pairs: [bigint, bigint][] = Array.from({ length: 40 }, (_, i) => [BigInt(i) * 7919n + 1n, BigInt(i) ** 5n]);
    const path = recorded("pairs.bin", () => {
      for (const [a, b] of pairs) {
        hash2(a, b);
        hash3(a, b, a);
      }
    });
    expect(loadPoseidonMemo(path)?.size).toBe(80);
    expect(usePoseidonMemo(path)).not.toBeNull();
    const before = hashCount();
    for (const [a, b] of pairs) {
      expect(hash2(a, b)).toBe(poseidon2([a, b]));
      expect(hash3(a, b, a)).toBe(poseidon3([a, b, a]));
    }
    expect(hashCount()).toBe(before); // all from the memo
    // The same values in another order or arity are other calls: hashed.
    const [a, b] = pairs[3]!;
    expect(hash2(b, a)).toBe(poseidon2([b, a]));
    expect(hash3(a, b, b)).toBe(poseidon3([a, b, b]));
    expect(hashCount()).toBe(before + 2);
  });

  it("is consulted by the exact inputs' text: an entry for (1, 2) serves hash2(1, 2) only", () => {
    // A memo holding a value that is not Poseidon's shows which calls read it.
    const rec = new PoseidonRecording();
    rec.add("2:1:2", 42n);
    const path = join(dir, "marked.bin");
    rec.write(path);
    usePoseidonMemo(path);
    expect(hash2(1n, 2n)).toBe(42n);
    expect(hash2(2n, 1n)).toBe(poseidon2([2n, 1n]));
    expect(hash3(1n, 2n, 0n)).toBe(poseidon3([1n, 2n, 0n]));
    expect(hash2(1n, 3n)).toBe(poseidon2([1n, 3n]));
  });

  it("is no memo when the file is absent, damaged, cut short or of another kind, or when turned off", () => {
    const path = recorded("good.bin", () => hash2(5n, 6n));
    const good = loadPoseidonMemo(path);
    expect(good?.get("2:5:6")).toBe(poseidon2([5n, 6n]));
    const original = readFileSync(path);
    expect(original.length).toBe(6 + 32 + 48); // header, checksum, one record
    const variants: Record<string, Buffer> = {
      "a flipped output bit": Buffer.concat([original.subarray(0, -1), Buffer.from([original[original.length - 1]! ^ 1])]),
      "cut short": original.subarray(0, original.length - 5),
      "another header": Buffer.concat([Buffer.from("PHPM2\n"), original.subarray(6)]),
      empty: Buffer.alloc(0),
    };
    for (const [what, content] of Object.entries(variants)) {
      const file = join(dir, `bad-${what.replace(/\W+/g, "-")}.bin`);
      writeFileSync(file, content);
      expect(loadPoseidonMemo(file), what).toBeNull();
      expect(usePoseidonMemo(file), what).toBeNull();
      expect(hash2(5n, 6n), what).toBe(poseidon2([5n, 6n]));
    }
    expect(loadPoseidonMemo(join(dir, "absent.bin"))).toBeNull();
    process.env.PHOTON_POSEIDON_MEMO = "off";
    expect(usePoseidonMemo(path)).toBeNull();
  });

  it("built into dist/, holds the default dataset's tree hashes (written by this build, not stale)", () => {
    const memo = loadPoseidonMemo(join(root, "dist", "reference", "trees", "poseidon-memo.bin"));
    expect(memo, "dist/reference/trees/poseidon-memo.bin: run `npm run build`").not.toBeNull();
    // The first pairs of leaves of each V1 state tree of the dataset startReferenceIndexer() generates (read without building the tree), and the zero values.
    const data = generateDataset();
    const forest = new Forest(data);
    let checked = 0;
    for (const record of data.trees.filter((t) => t.type === "StateV1")) {
      const tree = forest.merkleTree(record.tree)!;
      for (let i = 0; i + 1 < Math.min(tree.size, 40); i += 2) {
        const [l, r] = [tree.leaf(i), tree.leaf(i + 1)];
        expect(memo!.get(`2:${l.toString(16)}:${r.toString(16)}`), `${record.tree} leaves ${i}, ${i + 1}`).toBe(poseidon2([l, r]));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    for (let level = 0; level < MAX_HEIGHT; level++) {
      const z = zeroHash(level);
      expect(memo!.get(`2:${z.toString(16)}:${z.toString(16)}`)).toBe(zeroHash(level + 1));
    }
    expect(memo!.size).toBeGreaterThan(20_000);
  });
});
