/**
 * Signature histories (photon-behaviour.md §1.6): newest first, paged by a 72-byte cursor
 * (slot u64 LE ‖ signature).
 */
import { decodeBase58, encodeBase58, RpcError } from "@photon-indexer-kit/runtime";
import { encodeBase58Fast } from "../base58.js";
import type { SignatureRecord } from "../records.js";
import { bytesOf, concat, contextOf, type Family, limitOf, nextCursor, toSignatureInfo } from "./support.js";

export const signatureHandlers = ((store) => {
  const context = () => contextOf(store);
  return {
    getCompressionSignaturesForTokenOwner(params, facts) {
      const limit = limitOf(facts, params.limit);
      let start = 0;
      if (params.cursor !== null && params.cursor !== undefined) {
        // 72 bytes encode to at most 99 characters. Longer text is never a cursor, and decoding it
        // would cost time quadratic in its length (a request could stall the server), so it is not decoded.
        if (params.cursor.length > 99) throw RpcError.validation("Invalid cursor length. Expected 72. Received more than 72.");
        const bytes = decodeBase58(params.cursor);
        if (bytes === undefined) throw RpcError.validation(`Invalid cursor ${params.cursor}`);
        if (bytes.length !== 72) throw RpcError.validation(`Invalid cursor length. Expected 72. Received ${bytes.length}.`);
        const slot = Buffer.from(bytes).readBigUInt64LE(0);
        start = store.signaturesAfter(params.owner, slot, encodeBase58Fast(bytes.subarray(8)));
      }
      const page = store.signatures(params.owner).slice(start, start + limit);
      const encode = (s: SignatureRecord) => {
        const slot = Buffer.alloc(8);
        slot.writeBigUInt64LE(BigInt(s.slot));
        return encodeBase58(concat(slot, bytesOf(s.signature, "signature")));
      };
      return { context: context(), value: { items: page.map(toSignatureInfo), cursor: nextCursor(page, limit, encode) } };
    },
  };
}) satisfies Family<"getCompressionSignaturesForTokenOwner">;
