/** The localnet trees the dataset generator places accounts and addresses in, and the indexes and place kinds it uses for them. */
import type { TreeRecord } from "./records.js";

/** V1 trees (state and address): light-protocol cli/accounts/merkle_tree_pubkey_smt1….json and address_merkle_tree_amt1….json hold height 26 and 2400 roots (Photon's tests use the same: src/ingester/parser/state_update.rs:418). */
const V1_HEIGHT = 26;
const V1_ROOT_HISTORY = 2400;
/**
 * A V1 address tree's sequence number before its first address (light-protocol indexed-merkle-tree
 * `init` + `add_highest_element`; Photon indexed_merkle_tree/proof.rs:99-116). Batched trees start at 0.
 */
export const V1_ADDRESS_INIT_SEQ = 3;
/**
 * Batched tree heights 32 / 40 and root history 200: light-protocol program-libs/batched-merkle-tree/src/constants.rs
 * (crate 0.11), as the localnet accounts use them.
 */
const BATCHED_STATE_HEIGHT = 32;
const BATCHED_ADDRESS_HEIGHT = 40;
const BATCHED_ROOT_HISTORY = 200;

function v1State(tree: string, queue: string, cpiContext: string): Omit<TreeRecord, "seq"> {
  return { tree, queue, type: "StateV1", height: V1_HEIGHT, rootHistory: V1_ROOT_HISTORY, cpiContext };
}

function batchedState(tree: string, queue: string, cpiContext: string): Omit<TreeRecord, "seq"> {
  return { tree, queue, type: "StateV2", height: BATCHED_STATE_HEIGHT, rootHistory: BATCHED_ROOT_HISTORY, cpiContext };
}

/**
 * stateless.js's localnet trees (light-protocol js/stateless.js/src/constants.ts: `localTestActiveStateTreeInfos`,
 * `getDefaultAddressTreeInfo` for V1, `getBatchAddressTreeInfo` whose queue is the tree itself), in this order:
 * smt1, smt2 (V1 state), bmt1–bmt5 (batched state), amt1 (V1 address), amt2 (batched address).
 */
export const LOCALNET_TREES: readonly Omit<TreeRecord, "seq">[] = [
  v1State("smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148", "cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4"),
  v1State("smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho", "nfq2hgS7NYemXsFaFUCe3EMXSDSfnZnAe27jC6aPP1X", "cpi2cdhkH5roePvcudTgUL8ppEBfTay1desGh8G8QxK"),
  batchedState("bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU", "oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto", "cpi15BoVPKgEPw5o8wc2T816GE7b378nMXnhH3Xbq4y"),
  batchedState("bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi", "oq2UkeMsJLfXt2QHzim242SUi3nvjJs8Pn7Eac9H9vg", "cpi2yGapXUR3As5SjnHBAVvmApNiLsbeZpF3euWnW6B"),
  batchedState("bmt3ccLd4bqSVZVeCJnH1F6C8jNygAhaDfxDwePyyGb", "oq3AxjekBWgo64gpauB6QtuZNesuv19xrhaC1ZM1THQ", "cpi3mbwMpSX8FAGMZVP85AwxqCaQMfEk9Em1v8QK9Rf"),
  batchedState("bmt4d3p1a4YQgk9PeZv5s4DBUmbF5NxqYpk9HGjQsd8", "oq4ypwvVGzCUMoiKKHWh4S1SgZJ9vCvKpcz6RT6A8dq", "cpi4yyPDc4bCgHAnsenunGA8Y77j3XEDyjgfyCKgcoc"),
  batchedState("bmt5yU97jC88YXTuSukYHa8Z5Bi2ZDUtmzfkDTA2mG2", "oq5oh5ZR3yGomuQgFduNDzjtGvVWfDRGLuDVjv9a96P", "cpi5ZTjdgYpZ1Xr7B1cMLLUE81oTtJbNNAyKary2nV6"),
  {
    tree: "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2",
    queue: "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F",
    type: "AddressV1",
    height: V1_HEIGHT,
    rootHistory: V1_ROOT_HISTORY,
    cpiContext: null,
  },
  {
    tree: "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx",
    queue: "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx",
    type: "AddressV2",
    height: BATCHED_ADDRESS_HEIGHT,
    rootHistory: BATCHED_ROOT_HISTORY,
    cpiContext: null,
  },
];

/** The state trees accounts live in: smt1, smt2 (V1, kept level so leaf indexes repeat across them), bmt1–bmt5 (batched). */
export const TREES: readonly string[] = LOCALNET_TREES.slice(0, 7).map((t) => t.tree);

/** Indexes into LOCALNET_TREES. */
export const BMT1 = 2;
export const STATE_TREES = 7;
export const AMT1 = 7;
export const AMT2 = 8;
export const TREE_INDEX = new Map(LOCALNET_TREES.map((t, i) => [t.tree, i]));
/** Where the generator places an account: any state tree, a V1 one, a batched one, or one tree (an index into LOCALNET_TREES). */
export type Placement = { readonly kind: "any" } | { readonly kind: "v1" } | { readonly kind: "batched" } | { readonly kind: "tree"; readonly index: number };
export const ANY_TREE: Placement = { kind: "any" };
export const V1_TREE: Placement = { kind: "v1" };
export const BATCHED_TREE: Placement = { kind: "batched" };
