/**
 * Assertions of what stateless.js 0.23.3 returns (and what it received on the wire) against the
 * dataset's records. The client's shapes are the published build's (dist/types/index.d.ts):
 * BN for u64 and field values, PublicKey for keys, `address` as 32 numbers, `data.discriminator`
 * as its 8 little-endian bytes and `data.dataHash` as the hash's bytes REVERSED (the client's
 * `parseAccountData` calls `dataHash.toArray("le", 32)`), token `state` as an index into
 * ["uninitialized", "initialized", "frozen"], token `tlv` always null (the client drops it).
 */
import type { CompressedAccountWithMerkleContext, SignatureWithMetadata, TokenData, TreeInfo } from "@lightprotocol/stateless.js";
import type { PublicKey } from "@solana/web3.js";
import { expect } from "vitest";
import type { AccountRecord, SignatureRecord, TokenRecord, TreeRecord } from "../../../reference/records.js";
import { type DatasetView, TREE_TYPE, base58OfField, bytesOf } from "./expected.js";

/**
 * A bn.js value (the client's BN, untyped here) as bigint; also a big-endian byte array, which is
 * what the client puts in `hash` of the accounts of getTransactionWithCompressionInfo
 * (`hash.toArray("be", 32)` where the other methods keep the BN).
 */
export function big(value: { toString(base?: number): string } | readonly number[] | number | bigint): bigint {
  if (typeof value === "bigint") return value;
  if (Array.isArray(value)) return value.length === 0 ? 0n : BigInt(`0x${Buffer.from(value as number[]).toString("hex")}`);
  return BigInt(value.toString());
}

/** A BN field value (hash, root, address) as base58 of its 32 big-endian bytes. */
export function b58(value: { toString(base?: number): string } | readonly number[]): string {
  return base58OfField(big(value));
}

function keyOf(key: PublicKey | null | undefined): string | null {
  return key === null || key === undefined ? null : key.toBase58();
}

/** The client's tree info for a record's tree: stateless.js's localnet constants, which the dataset's trees must match. */
export function expectTreeInfo(info: TreeInfo | undefined, tree: TreeRecord): void {
  expect(info, `tree info of ${tree.tree}`).toBeDefined();
  const i = info as TreeInfo;
  expect({ tree: i.tree.toBase58(), queue: i.queue.toBase58(), cpiContext: keyOf(i.cpiContext), treeType: i.treeType }).toEqual({
    tree: tree.tree,
    queue: tree.queue,
    cpiContext: tree.cpiContext,
    treeType: TREE_TYPE[tree.type],
  });
}

export interface AccountExpectation {
  /** Whether the client resolved a tree info (from its localnet constants); the transaction methods leave it undefined. */
  treeInfo?: boolean;
  /** The expected `proveByIndex` when it is not the record's current state (transactions' opened accounts). */
  proveByIndex?: boolean;
  /** `dataSlice` of getCompressedAccountsByOwner: the data bytes the answer carries. */
  dataSlice?: { offset: number; length: number };
}

/** Every field of a client account against its record. */
export function expectAccount(view: DatasetView, account: CompressedAccountWithMerkleContext, record: AccountRecord, options: AccountExpectation = {}): void {
  const where = `account ${record.hash}`;
  expect(b58(account.hash), where).toBe(record.hash);
  expect(account.leafIndex, where).toBe(record.leafIndex);
  expect(account.proveByIndex, `${where} proveByIndex`).toBe(options.proveByIndex ?? view.inOutputQueue(record));
  expect(account.owner.toBase58(), where).toBe(record.owner);
  expect(big(account.lamports), `${where} lamports`).toBe(BigInt(record.lamports));
  expect(account.address === null ? null : base58Of(account.address), `${where} address`).toBe(record.address);
  expect(account.readOnly, where).toBe(false);
  if (record.data === null) {
    expect(account.data, `${where} data`).toBeNull();
  } else {
    const data = account.data;
    expect(data, `${where} data`).not.toBeNull();
    const le = Buffer.alloc(8);
    le.writeBigUInt64LE(BigInt(record.data.discriminator));
    const bytes = Buffer.from(record.data.data, "base64");
    const slice = options.dataSlice;
    expect({
      discriminator: [...(data?.discriminator ?? [])],
      data: Buffer.from(data?.data ?? []).toString("hex"),
      dataHash: [...(data?.dataHash ?? [])],
    }).toEqual({
      discriminator: [...le],
      data: (slice ? bytes.subarray(slice.offset, slice.offset + slice.length) : bytes).toString("hex"),
      dataHash: [...bytesOf(record.data.dataHash)].reverse(),
    });
  }
  if (options.treeInfo !== false) expectTreeInfo(account.treeInfo, view.treeOf(record));
}

function base58Of(bytes: readonly number[]): string {
  expect(bytes).toHaveLength(32);
  return base58OfField(BigInt(`0x${Buffer.from(bytes).toString("hex")}`));
}

/** A wire integer (number, or bigint above 2^53 from the lossless parse) as bigint, or null. */
function int(value: unknown): bigint | null {
  return value === null || value === undefined ? null : BigInt(value as number | bigint);
}

/** The V2 merkle context Photon sends for a record's tree (AccountV2: cpiContext and nextTreeContext always null). */
export function wireMerkleContext(tree: TreeRecord): Record<string, unknown> {
  return { treeType: TREE_TYPE[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null, nextTreeContext: null };
}

/**
 * An `AccountV2` as the reference sent it (photon src/common/typedefs/account/v2.rs): every field,
 * the ones the client drops (seq, slotCreated, merkleContext) included.
 */
export function expectWireAccount(
  view: DatasetView,
  raw: unknown,
  record: AccountRecord,
  options: { seq?: number | null; slotCreated?: number; proveByIndex?: boolean; dataSlice?: { offset: number; length: number } } = {},
): void {
  const a = raw as Record<string, unknown>;
  const data = a.data as Record<string, unknown> | null;
  const slice = options.dataSlice;
  const bytes = record.data === null ? null : Buffer.from(record.data.data, "base64");
  expect(
    {
      hash: a.hash,
      address: a.address,
      owner: a.owner,
      lamports: int(a.lamports),
      leafIndex: int(a.leafIndex),
      seq: int(a.seq),
      slotCreated: int(a.slotCreated),
      proveByIndex: a.proveByIndex,
      merkleContext: a.merkleContext,
      data: data === null ? null : { discriminator: int(data.discriminator), data: data.data, dataHash: data.dataHash },
    },
    `wire account ${record.hash}`,
  ).toEqual({
    hash: record.hash,
    address: record.address,
    owner: record.owner,
    lamports: BigInt(record.lamports),
    leafIndex: BigInt(record.leafIndex),
    seq: int(options.seq === undefined ? record.seq : options.seq),
    slotCreated: BigInt(options.slotCreated ?? record.slotCreated),
    proveByIndex: options.proveByIndex ?? view.inOutputQueue(record),
    merkleContext: wireMerkleContext(view.treeOf(record)),
    data:
      record.data === null || bytes === null
        ? null
        : {
            discriminator: BigInt(record.data.discriminator),
            data: (slice ? bytes.subarray(slice.offset, slice.offset + slice.length) : bytes).toString("base64"),
            dataHash: record.data.dataHash,
          },
  });
}

const STATES = ["uninitialized", "initialized", "frozen"];

/** The client's token data against the token record (tlv: the client always sets null). */
export function expectTokenData(parsed: TokenData, token: TokenRecord): void {
  expect({
    mint: parsed.mint.toBase58(),
    owner: parsed.owner.toBase58(),
    amount: big(parsed.amount),
    delegate: keyOf(parsed.delegate),
    state: STATES[parsed.state],
    tlv: parsed.tlv,
  }).toEqual({ mint: token.mint, owner: token.owner, amount: BigInt(token.amount), delegate: token.delegate, state: token.state, tlv: null });
}

/** Token data as the reference sent it, tlv included (base64 of every byte after the option tag in 0.51.2). */
export function expectWireTokenData(raw: unknown, token: TokenRecord): void {
  const t = raw as Record<string, unknown>;
  expect({ mint: t.mint, owner: t.owner, amount: int(t.amount), delegate: t.delegate, state: t.state, tlv: t.tlv }, `wire token data ${token.hash}`).toEqual({
    mint: token.mint,
    owner: token.owner,
    amount: BigInt(token.amount),
    delegate: token.delegate,
    state: token.state,
    tlv: token.tlv,
  });
}

/** Signature items (slot and blockTime as numbers) against records, in order. */
export function expectSignatures(items: readonly SignatureWithMetadata[], records: readonly SignatureRecord[]): void {
  expect(items.map((s) => ({ signature: s.signature, slot: s.slot, blockTime: s.blockTime }))).toEqual(
    records.map((s) => ({ signature: s.signature, slot: s.slot, blockTime: s.blockTime })),
  );
}
