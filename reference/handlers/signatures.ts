/**
 * Signature histories (photon HEAD:src/api/method/utils.rs:398-600, the one query every signature
 * method runs, `search_for_signatures`): distinct transactions, newest first (`ORDER BY
 * transactions.slot DESC, transactions.signature DESC`, utils.rs:504, 530), paged by a 72-byte
 * cursor (slot u64 LE ‖ signature, utils.rs:564-574); the next page is `slot < s OR (slot = s AND
 * signature < sig)` (utils.rs:466-469), which is `Sorted.after({ slot, signature })` in the
 * method's order. Which transactions each method lists is the store's (store/history.ts); the
 * transaction `error` is dropped everywhere except getLatestNonVotingSignatures (utils.rs:379-396).
 */
import { decodeBase58, encodeBase58, internalError, type MethodInfo, RpcCode, RpcError } from "@photon-indexer-kit/runtime";
import { methods } from "../../generated/methods.js";
import { RefErrorCode } from "../errors.js";
import type { SignatureRecord } from "../records.js";
import { documentedOrder, type Order, type Sorted } from "../store.js";
import { bytesOf, concat, contextOf, type Family, internalServerError, limitOf, nextCursor, type Reference, toSignatureInfo } from "./support.js";

const SLOT_BYTES = 8;
const SIGNATURE_BYTES = 64;
const CURSOR_BYTES = SLOT_BYTES + SIGNATURE_BYTES;
/** The longest base58 text of 72 bytes (72 zero bytes are 72 '1's; 72 0xff bytes encode to 99 characters). */
const CURSOR_TEXT_MAX = 99;
const NOT_BASE58 = /[^1-9A-HJ-NP-Za-km-z]/;

/** A decoded cursor: the position of the last item of the previous page, as a probe of the store's sorted lists. */
export interface SignatureCursor {
  readonly slot: bigint;
  readonly signature: string;
}

/**
 * Decodes a signature cursor as Photon does (utils.rs:441-481): -32000 `Invalid cursor <c>` or
 * `Invalid cursor length. Expected 72. Received N.`. Text over 99 characters is refused by its length,
 * undecoded, since decoding is quadratic (DECISIONS row 41); only the count in the message differs.
 */
export function decodeSignatureCursor(cursor: string): SignatureCursor {
  if (NOT_BASE58.test(cursor)) throw RpcError.validation(`Invalid cursor ${cursor}`);
  if (cursor.length > CURSOR_TEXT_MAX) throw RpcError.validation(`Invalid cursor length. Expected ${CURSOR_BYTES}. Received more than ${CURSOR_BYTES}.`);
  const bytes = decodeBase58(cursor);
  if (bytes === undefined) throw RpcError.validation(`Invalid cursor ${cursor}`);
  if (bytes.length !== CURSOR_BYTES) throw RpcError.validation(`Invalid cursor length. Expected ${CURSOR_BYTES}. Received ${bytes.length}.`);
  return { slot: Buffer.from(bytes).readBigUInt64LE(0), signature: encodeBase58(bytes.subarray(SLOT_BYTES)) };
}

/** The cursor after `s`: base58 of its slot as u64 little-endian followed by its 64 signature bytes (utils.rs:564-574). */
export function encodeSignatureCursor(s: SignatureRecord): string {
  const slot = Buffer.alloc(SLOT_BYTES);
  slot.writeBigUInt64LE(BigInt(s.slot));
  return encodeBase58(concat(slot, bytesOf(s.signature, "signature")));
}

/**
 * The page size of an unpaginated signature list that still takes `limit` (getLatestNonVotingSignatures:
 * Photon runs the paged query with the request's limit, default PAGE_LIMIT: utils.rs:547,
 * limit.rs:23-27): the default every paginated list of the same items (`identity`) documents.
 */
function sharedDefaultLimit(facts: MethodInfo): number {
  const own = facts.pagination?.defaultLimit;
  if (own !== null && own !== undefined) return own;
  const defaults = new Set<number>();
  for (const m of Object.values(methods) as MethodInfo[]) {
    const d = m.pagination?.defaultLimit;
    if (m.identity !== null && m.identity === facts.identity && d !== null && d !== undefined) defaults.add(d);
  }
  const [only, ...more] = defaults;
  if (only === undefined || more.length > 0)
    throw internalError(
      RefErrorCode.INTERNAL,
      `${facts.name} has no default limit, and the lists of its items document ${defaults.size === 0 ? "none" : "several"}`,
    );
  return only;
}

/** Up to `limit` rows of `list` after `cursor` (from the first without one). */
function pageOf(list: Sorted<SignatureRecord>, cursor: string | null | undefined, limit: number): readonly SignatureRecord[] {
  const start = cursor === null || cursor === undefined ? 0 : list.after(decodeSignatureCursor(cursor));
  return list.page(start, limit);
}

/** One page of a paginated signature list: `{context, value: {items, cursor}}`, the cursor null exactly on a short page. */
function paged(ref: Reference, list: (order: Order) => Sorted<SignatureRecord>) {
  return (params: { cursor?: string | null; limit?: number | bigint | null }, facts: MethodInfo) => {
    const order = documentedOrder(facts);
    const limit = limitOf(facts, params.limit);
    const page = pageOf(list(order), params.cursor, limit);
    return { context: contextOf(ref), value: { items: page.map(toSignatureInfo), cursor: nextCursor(page, limit, encodeSignatureCursor) } };
  };
}

/** The histories of one key: an account owner, a token owner, an address (`SignatureFilter`, utils.rs:398-439). */
const historyHandlers = ((ref) => {
  const { store } = ref;
  return {
    /** `JOIN token_accounts … WHERE token_accounts.owner = $1` (utils.rs:424-435; get_compression_signatures_for_token_owner.rs:24-43). */
    getCompressionSignaturesForTokenOwner(params, facts) {
      return paged(ref, (order) => store.signaturesForTokenOwner(params.owner, order))(params, facts);
    },
    /** `JOIN accounts … WHERE accounts.owner = $1`: the program owner (utils.rs:424-435; get_compression_signatures_for_owner.rs:24-44). */
    getCompressionSignaturesForOwner(params, facts) {
      return paged(ref, (order) => store.signaturesForOwner(params.owner, order))(params, facts);
    },
    /** `JOIN accounts … WHERE accounts.address = $1`: every version of the address (utils.rs:430-432; get_compression_signatures_for_address.rs:24-44). */
    getCompressionSignaturesForAddress(params, facts) {
      return paged(ref, (order) => store.signaturesForAddress(params.address, order))(params, facts);
    },
  };
}) satisfies Family;

/** One account's two transactions, and the latest transactions of the whole index. */
const accountAndLatestHandlers = ((ref) => {
  const { store } = ref;
  const context = () => contextOf(ref);
  return {
    /**
     * `account_transactions.hash = $1`, no cursor, default limit (get_compression_signatures_for_account.rs:18-27):
     * more than two is an unexpected error, -32000 `Internal server error` (:29-34, error.rs:62-68),
     * none is -32000 `Record Not Found: Account not found` (:36-40).
     */
    getCompressionSignaturesForAccount(params, facts) {
      const rows = store.signaturesForAccount(params.hash, documentedOrder(facts)).rows;
      if (rows.length > 2) throw internalServerError();
      if (rows.length === 0) throw new RpcError(RpcCode.CALL_EXECUTION_FAILED, "Record Not Found: Account not found");
      return { context: context(), value: { items: rows.map(toSignatureInfo) } };
    },
    /** Every transaction with `uses_compression = true` (utils.rs:511-535; get_latest_compression_signatures.rs:15-22): the dataset's. */
    getLatestCompressionSignatures(params, facts) {
      return paged(ref, (order) => store.latestSignatures(order))(params, facts);
    },
    /**
     * Every indexed transaction with its `error` (get_latest_non_voting_signatures.rs:18-25); cursor and limit
     * apply but the answer drops the cursor (:28-33). The dataset holds only successes, so every `error` is null.
     */
    getLatestNonVotingSignatures(params, facts) {
      const limit = params.limit === null || params.limit === undefined ? sharedDefaultLimit(facts) : Number(params.limit);
      const page = pageOf(store.latestSignatures(documentedOrder(facts)), params.cursor, limit);
      return { context: context(), value: { items: page.map((s) => ({ ...toSignatureInfo(s), error: null })) } };
    },
  };
}) satisfies Family;

/** The signature methods. */
export const signatureHandlers = (ref: Reference) => ({ ...historyHandlers(ref), ...accountAndLatestHandlers(ref) });
