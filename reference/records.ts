/**
 * The plain records of a reference dataset, shared by the generator, the file format and
 * the store. Base58 and base64 values are strings; uint64 values that can exceed 2^53
 * (lamports, amounts, discriminators) are `U64`: a `number` when it is a safe integer,
 * otherwise a `bigint` (the same split that runtime `parseJson` produces). Slots, leaf
 * indexes, sequence numbers and block times are always safe-integer `number`s.
 */

/** A uint64 value: `number` up to 2^53 - 1, `bigint` above. */
export type U64 = number | bigint;

/** The compressed-token program: `account.owner` of every token account. */
export const TOKEN_PROGRAM = "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m";

export const U64_MAX = 18446744073709551615n;

export interface AccountDataRecord {
  /** The 8 discriminator bytes read as a little-endian u64. */
  discriminator: U64;
  /** Standard base64 (with `=` padding) of the data bytes, which exclude the discriminator. */
  data: string;
  /** Base58, 32 bytes. */
  dataHash: string;
}

/** A compressed account, spent or not. */
export interface AccountRecord {
  /** Base58, 32 bytes; unique in the dataset. */
  hash: string;
  /** Base58, 32 bytes, or null. At most one unspent account holds a given address. */
  address: string | null;
  data: AccountDataRecord | null;
  /** The owning program (base58 pubkey); TOKEN_PROGRAM for token accounts. */
  owner: string;
  lamports: U64;
  /** The state tree (base58 pubkey). */
  tree: string;
  /** Position in `tree`; (tree, leafIndex) is unique. */
  leafIndex: number;
  /**
   * The tree's sequence number after this account's append: V1 trees only. Null for every account
   * of a batched (StateV2) tree, as Photon sends it (its event parser sets `seq` for StateV1 only,
   * src/ingester/parser/tx_event_parser.rs:117-127): use `inOutputQueue` to tell queued ones.
   */
  seq: number | null;
  slotCreated: number;
  /** Nullified: invisible to every method except the signature history. */
  spent: boolean;
  /**
   * Batched (StateV2) trees only, spent accounts only: still in the tree's input (nullifier)
   * queue, not yet nullified in the tree by a batch. False elsewhere.
   */
  inInputQueue: boolean;
  /**
   * Batched (StateV2) trees only: still in the tree's output queue, not yet appended to the tree
   * by a batch (proved by index, `proveByIndex`). Such an account is never spent. False elsewhere.
   */
  inOutputQueue: boolean;
}

export type TokenState = "initialized" | "frozen";

/** The token fields of the account with the same `hash` (whose owner is TOKEN_PROGRAM). */
export interface TokenRecord {
  hash: string;
  mint: string;
  /** The token owner (what the token methods call `owner`). */
  owner: string;
  amount: U64;
  delegate: string | null;
  state: TokenState;
  /** Standard base64 of every byte after the option tag (the u32 LE length prefix included, as 0.51.2 sends it), or null. */
  tlv: string | null;
}

/**
 * A compression transaction: the account hashes it opened (created) and closed (spent),
 * token accounts included. Every account in the dataset is opened by exactly one
 * transaction, and every spent account is closed by exactly one later (or same-slot) one.
 */
export interface SignatureRecord {
  /** Base58, 64 bytes; unique in the dataset. */
  signature: string;
  slot: number;
  /** Unix seconds of the slot's block. */
  blockTime: number;
  /** Hashes of the accounts this transaction created, in output order. */
  opened: string[];
  /** Hashes of the accounts this transaction spent (nullified), in input order. */
  closed: string[];
}

/** Photon's tree types (`TreeType` as u16 on the wire: StateV1 1, AddressV1 2, StateV2 3, AddressV2 4). */
export type TreeType = "StateV1" | "AddressV1" | "StateV2" | "AddressV2";

/**
 * A Merkle tree the dataset uses, with the public keys stateless.js's localnet constants
 * give it (so the real client, pointed at 127.0.0.1, finds the same trees).
 */
export interface TreeRecord {
  /** Base58 pubkey of the tree account. */
  tree: string;
  /** Its queue: the nullifier queue (StateV1), the output queue (StateV2), the address queue (AddressV1), the tree itself (AddressV2). */
  queue: string;
  type: TreeType;
  /** Leaf levels: 26 (V1 trees), 32 (batched state), 40 (batched address). */
  height: number;
  /** Roots kept on chain: a root index is `rootSeq % rootHistory` (V1) as Photon reports it. */
  rootHistory: number;
  /** The CPI context account of a state tree, or null. */
  cpiContext: string | null;
  /**
   * The tree's sequence number after the dataset's last update (each append or nullification
   * of a V1 tree counts one; every account `seq` in the tree is at most this). The root
   * sequence (`rootSeq`) of proofs against the current root.
   */
  seq: number;
}

/** An address created in an address tree, in insertion order per tree. */
export interface AddressRecord {
  /** Base58, 32 bytes (a BN254 field element). */
  address: string;
  /** The address tree (base58 pubkey) it was inserted into. */
  tree: string;
  slot: number;
  /** Batched (V2) address trees only: still in the tree's queue, not yet inserted by a batch. */
  queued: boolean;
}

export interface Dataset {
  /** The generator seed, or null for a dataset not made by `generateDataset`. */
  seed: number | null;
  /** The highest indexed block slot: what every answer's context states and the slot method answers. No record is later. */
  slot: number;
  /** Every tree the records refer to (state trees of accounts, address trees of addresses). */
  trees: TreeRecord[];
  accounts: AccountRecord[];
  tokens: TokenRecord[];
  /** Transactions, by (slot, signature bytes) ascending. */
  signatures: SignatureRecord[];
  /** Addresses per address tree, in insertion order. */
  addresses: AddressRecord[];
}

/** Normalises a uint64 to the `U64` convention (number when safe, bigint above). */
export function u64(value: number | bigint): U64 {
  if (typeof value === "number") return value;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
