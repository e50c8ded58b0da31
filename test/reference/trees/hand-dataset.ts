/** A small dataset written by hand for the forest tests, with stateless.js's localnet keys, and their helpers. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RpcError } from "../../../runtime/index.js";
import { Random } from "../../../reference/random.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TreeRecord } from "../../../reference/records.js";
import { ADDRESS_TREE_V1 } from "../../../reference/trees/forest.js";
import { bigintToBase58, bytesToBigint } from "../../../reference/trees/poseidon.js";
import { root } from "../../helpers/paths.js";

// Localnet keys of stateless.js (js/stateless.js/src/constants.ts).
export const SMT1 = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT";
export const NFQ1 = "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148";
export const BMT1 = "bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU";
export const OQ1 = "oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto";
export const AMT1 = ADDRESS_TREE_V1;
export const AQ1 = "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F";
export const AMT2 = "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx";

export const rng = new Random(15, "forest-test");
export const fieldHash = () => {
  const bytes = rng.bytes(32);
  bytes[0] = (bytes[0] as number) % 0x30;
  return bigintToBase58(bytesToBigint(bytes));
};
export const newAddress = () => {
  const bytes = rng.bytes(32);
  bytes[0] = 0;
  return bigintToBase58(bytesToBigint(bytes));
};
export const signatureText = () => bigintToBase58(bytesToBigint(rng.bytes(32))) + bigintToBase58(bytesToBigint(rng.bytes(32)));

export function trees(seq: { smt1: number; bmt1: number; amt1: number; amt2: number }): TreeRecord[] {
  return [
    { tree: SMT1, queue: NFQ1, type: "StateV1", height: 26, rootHistory: 2400, cpiContext: "cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4", seq: seq.smt1 },
    { tree: BMT1, queue: OQ1, type: "StateV2", height: 32, rootHistory: 200, cpiContext: "cpi15BoVPKgEPw5o8wc2T816GE7b378nMXnhH3Xbq4y", seq: seq.bmt1 },
    { tree: AMT1, queue: AQ1, type: "AddressV1", height: 26, rootHistory: 2400, cpiContext: null, seq: seq.amt1 },
    { tree: AMT2, queue: AMT2, type: "AddressV2", height: 40, rootHistory: 200, cpiContext: null, seq: seq.amt2 },
  ];
}

/** A V1 account has its seq; a batched one has seq null (as Photon sends it), `inOutputQueue` telling whether it waits in the output queue. */
export function account(tree: string, leafIndex: number, seq: number | null, spent = false, inInputQueue = false, inOutputQueue = false): AccountRecord {
  return { hash: fieldHash(), address: null, data: null, owner: SMT1, lamports: 1, tree, leafIndex, seq, slotCreated: 100, spent, inInputQueue, inOutputQueue };
}

/**
 * A small dataset by hand, with every leaf state: smt1 (V1) leaves 0-5 with 1 and 4 spent; bmt1
 * (batched) leaves 0-4 in the tree (1 nullified, 2 spent but still in the input queue) and 5-7
 * in the output queue (6 spent from the queue); addresses in amt1 and amt2 (two still queued).
 */
export function handDataset() {
  const v1 = [0, 1, 2, 3, 4, 5].map((i) => account(SMT1, i, i + 1, i === 1 || i === 4));
  const v2 = [
    account(BMT1, 0, null),
    account(BMT1, 1, null, true, false),
    account(BMT1, 2, null, true, true),
    account(BMT1, 3, null),
    account(BMT1, 4, null),
    account(BMT1, 5, null, false, false, true),
    account(BMT1, 6, null, true, true, true),
    account(BMT1, 7, null, false, false, true),
  ];
  const sigA: SignatureRecord = { signature: signatureText(), slot: 100, blockTime: 1, opened: [...v1, ...v2.slice(0, 5)].map((a) => a.hash), closed: [] };
  const sigB: SignatureRecord = { signature: signatureText(), slot: 101, blockTime: 2, opened: [v2[5]!.hash, v2[6]!.hash], closed: [v1[1]!.hash, v2[1]!.hash] };
  const sigC: SignatureRecord = { signature: signatureText(), slot: 102, blockTime: 3, opened: [v2[7]!.hash], closed: [v1[4]!.hash, v2[2]!.hash, v2[6]!.hash] };
  const amt1 = Array.from({ length: 5 }, newAddress);
  const amt2 = Array.from({ length: 4 }, newAddress);
  const queued = Array.from({ length: 2 }, newAddress);
  const addresses: AddressRecord[] = [
    ...amt1.map((address) => ({ address, tree: AMT1, slot: 100, queued: false })),
    ...amt2.map((address) => ({ address, tree: AMT2, slot: 100, queued: false })),
    ...queued.map((address) => ({ address, tree: AMT2, slot: 102, queued: true })),
  ];
  const dataset: Dataset = {
    seed: null,
    slot: 102,
    // smt1: 6 appends + 2 nullifications, pushed past its root history to show the modulo; amt1: 3 + 2 per address.
    trees: trees({ smt1: 2405, bmt1: 6, amt1: 3 + 2 * amt1.length, amt2: 4 }),
    accounts: [...v1, ...v2],
    tokens: [],
    signatures: [sigA, sigB, sigC],
    addresses,
  };
  return { dataset, v1, v2, sigB, sigC, amt1, amt2, queued };
}

export function rpcError(f: () => unknown): RpcError {
  try {
    f();
  } catch (err) {
    if (err instanceof RpcError) return err;
    throw err;
  }
  throw new Error("expected an RpcError");
}

export const photon = (file: string) => {
  const text = readFileSync(join(root, "test", "fixtures", "photon-snapshots", file), "utf8");
  return JSON.parse(text.slice(text.indexOf("\n{"))) as { value: unknown[] };
};
