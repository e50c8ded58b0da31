/** stateless.js checks of the signature and transaction methods. */
import { type SignatureWithMetadata, bn } from "@lightprotocol/stateless.js";
import { expect } from "vitest";
import { expectSignatures } from "../stateless/check.js";
import { traced } from "../stateless/wire.js";
import {
  base58OfSignature,
  bnOf,
  type Check,
  dataset,
  expectPageSizes,
  expectTransaction,
  keyOf,
  methodsOf,
  only,
  pages,
  profile,
  rpc,
  view,
} from "./context.js";

export const signatureChecks: Readonly<Record<string, Check>> = {
  getCompressionSignaturesForAccount: {
    run: async () => {
      // A spent account: the transactions that opened and closed it; an unspent one: the one that opened it.
      const spent = view.account(profile.spentHash);
      const unspent = view.account(profile.knownHash);
      for (const [record, n] of [
        [spent, 2],
        [unspent, 1],
      ] as const) {
        const { value, exchanges } = await traced(() => rpc.getCompressionSignaturesForAccount(bnOf(record.hash)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressionSignaturesForAccount", { hash: record.hash }]);
        const expected = view.signaturesForAccount(record.hash);
        expect(expected).toHaveLength(n);
        expectSignatures(value, expected);
      }
      // Photon answers an account without history with an error (get_compression_signatures_for_account.rs: RecordNotFound).
      await expect(rpc.getCompressionSignaturesForAccount(bnOf(profile.unknownHash))).rejects.toThrow();
    },
  },

  getCompressionSignaturesForAddress: {
    run: async () => {
      // Every version of an updated address, one signature a page.
      const address = profile.updatedAddress.address;
      const seen: SignatureWithMetadata[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressionSignaturesForAddress(keyOf(address), { limit: bn(1), ...(cursor ? { cursor } : {}) }))) {
          expect(page.items.length).toBeLessThanOrEqual(1);
          seen.push(...page.items);
        }
      });
      expect(exchanges[0]?.params).toEqual({ address, limit: 1 });
      expect(methodsOf(exchanges).every((m) => m === "getCompressionSignaturesForAddress")).toBe(true);
      const expected = view.signaturesForAddress(address);
      expect(expected.length).toBeGreaterThanOrEqual(2);
      expectSignatures(seen, expected);
      expect((await rpc.getCompressionSignaturesForAddress(keyOf(profile.unknownAddress))).items).toEqual([]);
    },
  },

  getCompressionSignaturesForOwner: {
    run: async () => {
      const owner = profile.ownerWithManyAccounts.owner;
      const seen: SignatureWithMetadata[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressionSignaturesForOwner(keyOf(owner), cursor ? { cursor } : undefined))) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(exchanges[0]?.params).toEqual({ owner });
      expect(methodsOf(exchanges).every((m) => m === "getCompressionSignaturesForOwner")).toBe(true);
      const expected = view.signaturesForOwner(owner);
      expectPageSizes(sizes, expected.length, 1000);
      expectSignatures(seen, expected);
      expect((await rpc.getCompressionSignaturesForOwner(keyOf(profile.ownerWithNoAccounts))).items).toEqual([]);
    },
    timeout: 60_000,
  },

  getCompressionSignaturesForTokenOwner: {
    run: async () => {
      const { owner, signatures } = profile.tokenOwnerWith1000TokenAccounts;
      const seen: SignatureWithMetadata[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) =>
          rpc.getCompressionSignaturesForTokenOwner(keyOf(owner), { limit: bn(150), ...(cursor ? { cursor } : {}) }),
        )) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(exchanges[0]?.params).toEqual({ owner, limit: 150 });
      const expected = view.signaturesForTokenOwner(owner);
      expect(expected).toHaveLength(signatures);
      expectPageSizes(sizes, expected.length, 150);
      expectSignatures(seen, expected);
      const t1001 = profile.tokenOwnerWith1001TokenAccounts.owner;
      const p1001 = await pages((cursor) => rpc.getCompressionSignaturesForTokenOwner(keyOf(t1001), cursor ? { cursor } : undefined));
      expectSignatures(
        p1001.flatMap((p) => p.items),
        view.signaturesForTokenOwner(t1001),
      );
    },
    timeout: 60_000,
  },

  getLatestCompressionSignatures: {
    run: async () => {
      // Every signature of the dataset, newest first, over default pages (client argument order: cursor, limit).
      const seen: { signature: string; slot: number; blockTime: number }[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(async (cursor) => {
          const res = await rpc.getLatestCompressionSignatures(cursor);
          expect(res.context.slot).toBe(dataset.slot);
          return res.value;
        }, 200)) {
          seen.push(...page.items);
        }
      });
      expect(exchanges[0]?.params).toEqual({});
      expect(methodsOf(exchanges).every((m) => m === "getLatestCompressionSignatures")).toBe(true);
      expectSignatures(seen, view.newestFirst);
      const first = await rpc.getLatestCompressionSignatures(undefined, 7);
      expectSignatures(first.value.items, view.newestFirst.slice(0, 7));
      expect(first.value.cursor).not.toBeNull();
    },
    timeout: 120_000,
  },

  getLatestNonVotingSignatures: {
    run: async () => {
      // Not paginated in its result (no cursor), but it takes limit and cursor (client argument order: limit, cursor).
      const { value, exchanges } = await traced(() => rpc.getLatestNonVotingSignatures(50));
      expect([only(exchanges).method, only(exchanges).params]).toEqual(["getLatestNonVotingSignatures", { limit: 50 }]);
      expect(value.context.slot).toBe(dataset.slot);
      expect(value.value.items.map((s) => s.error)).toEqual(new Array(50).fill(null));
      expectSignatures(value.value.items, view.newestFirst.slice(0, 50));
      const cursor = (await rpc.getLatestCompressionSignatures(undefined, 50)).value.cursor as string;
      const next = await rpc.getLatestNonVotingSignatures(50, cursor);
      expectSignatures(next.value.items, view.newestFirst.slice(50, 100));
    },
  },

  getTransactionWithCompressionInfo: {
    run: async () => {
      // An update (closes and opens), the transaction opening the most token accounts, one closing a token account and one closing a batched account.
      const transactions = view.transactionsToCheck();
      expect(transactions.length).toBeGreaterThanOrEqual(2);
      for (const s of transactions) await expectTransaction(s);
      // A signature the indexer never saw: Photon fails to fetch it from Solana and answers an error.
      await expect(rpc.getTransactionWithCompressionInfo(base58OfSignature(7))).rejects.toThrow();
    },
  },
};
