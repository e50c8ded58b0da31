/**
 * What the reference's handler families share: the handler shape (a method's params plus its
 * own method-table entry), result builders for the records, and Photon's paging rules.
 */
import type { Answer, MethodName, Params, Schemas } from "../../generated/index.js";
import { type CallContext, decodeBase58, type MethodInfo, RpcError } from "@photon-indexer-kit/runtime";
import type { AccountRecord, SignatureRecord, TokenRecord } from "../records.js";
import type { ReferenceStore } from "../store.js";

/** A handler that also gets its own method's entry of the method table (page sizes, list caps), so it never looks itself up by name. */
export type FactHandler<M extends MethodName> = (params: Params<M>, facts: MethodInfo, call: CallContext) => Answer<M>;
export type FactHandlers = { [M in MethodName]: FactHandler<M> };

/** One family of handlers (a file of handlers/) over the store: some of the methods. */
export type Family<M extends MethodName> = (store: ReferenceStore) => { [K in M]: FactHandler<K> };

/** A call's page size: its limit param, else the method's default (`x-default` on its limit's schema). */
export function limitOf(facts: MethodInfo, limit: number | bigint | null | undefined): number {
  return limit === null || limit === undefined ? (facts.pagination?.defaultLimit ?? Number.MAX_SAFE_INTEGER) : Number(limit);
}

/** The most entries a list param may hold (`x-max-items`): more is -32000 from the handler, not a params error. */
export function maxItems(facts: MethodInfo, param: string): number {
  return facts.maxItems[param] ?? Number.MAX_SAFE_INTEGER;
}

/** `context` of every `{context, value}` result. */
export function contextOf(store: ReferenceStore): { slot: number } {
  return { slot: store.slot };
}

export type Account = Schemas["Account"];

export interface Slice {
  offset: number;
  length: number;
}

export function toAccount(a: AccountRecord, slice: Slice | null = null): Account {
  let data: Account["data"] = null;
  if (a.data !== null) {
    const bytes =
      slice === null
        ? a.data.data
        : Buffer.from(a.data.data, "base64")
            .subarray(slice.offset, slice.offset + slice.length)
            .toString("base64");
    data = { discriminator: a.data.discriminator, data: bytes, dataHash: a.data.dataHash };
  }
  return {
    hash: a.hash,
    address: a.address,
    data,
    owner: a.owner,
    lamports: a.lamports,
    tree: a.tree,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
  };
}

export function toTokenData(t: TokenRecord): Schemas["TokenData"] {
  return { mint: t.mint, owner: t.owner, amount: t.amount, delegate: t.delegate, state: t.state, tlv: t.tlv };
}

export function toSignatureInfo(s: SignatureRecord): Schemas["SignatureInfo"] {
  return { signature: s.signature, slot: s.slot, blockTime: s.blockTime };
}

/** Photon's last-page rule: a cursor exactly when the page is full. */
export function nextCursor<T>(items: readonly T[], limit: number, encode: (last: T) => string): string | null {
  const last = items[items.length - 1];
  return last === undefined || items.length < limit ? null : encode(last);
}

/** Decodes base58 that the params validator already accepted (a direct caller may still pass junk). */
export function bytesOf(text: string, field: string): Uint8Array {
  const bytes = decodeBase58(text);
  if (bytes === undefined) throw RpcError.invalidParams(`invalid base58 in ${field}`);
  return bytes;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}
