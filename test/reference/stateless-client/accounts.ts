/** stateless.js checks of the compressed account methods: lookups, balances, pages by owner. */
import { type CompressedAccountWithMerkleContext, bn } from "@lightprotocol/stateless.js";
import { expect } from "vitest";
import { U64_MAX } from "../../../reference/index.js";
import type { AccountRecord } from "../../../reference/records.js";
import { big, expectAccount, expectWireAccount } from "../stateless/check.js";
import { bytesOf } from "../stateless/expected.js";
import { answerValue, traced } from "../stateless/wire.js";
import { accountSamples, bnOf, type Check, expectAccountSet, expectPageSizes, keyOf, methodsOf, only, pages, profile, rpc, view } from "./context.js";

export const accountChecks: Readonly<Record<string, Check>> = {
  getCompressedAccount: {
    run: async () => {
      const { inTree, queued } = accountSamples();
      const big = view.account(profile.accountWithBigLamports.hash);
      const token = view.account(profile.tokenAccountWithMaxAmount);
      for (const record of [...inTree, queued, big, token, view.account(profile.ownerWithOneAccount.hash)]) {
        const { value, exchanges } = await traced(() => rpc.getCompressedAccount(undefined, bnOf(record.hash)));
        const e = only(exchanges);
        expect([e.method, e.params]).toEqual(["getCompressedAccountV2", { hash: record.hash }]);
        expect(value).not.toBeNull();
        expectAccount(view, value as CompressedAccountWithMerkleContext, record);
        expectWireAccount(view, answerValue(e), record);
      }
      for (const [address, hash] of [
        [profile.knownAddress, profile.knownHash],
        [profile.updatedAddress.address, profile.updatedAddress.hash],
      ] as const) {
        const { value, exchanges } = await traced(() => rpc.getCompressedAccount(bnOf(address)));
        expect(only(exchanges).params).toEqual({ address });
        expectAccount(view, value as CompressedAccountWithMerkleContext, view.account(hash));
      }
      for (const hash of [profile.spentHash, profile.unknownHash]) expect(await rpc.getCompressedAccount(undefined, bnOf(hash)), hash).toBeNull();
      for (const address of [profile.spentAddress, profile.unknownAddress]) expect(await rpc.getCompressedAccount(bnOf(address)), address).toBeNull();
    },
  },

  getMultipleCompressedAccounts: {
    run: async () => {
      const { inTree, queued } = accountSamples();
      const records = [...inTree, queued, view.account(profile.accountWithBigLamports.hash), view.account(profile.tokenAccountWithMaxAmount)];
      const hashes = records.map((r) => r.hash);
      const { value, exchanges } = await traced(() => rpc.getMultipleCompressedAccounts(hashes.map(bnOf)));
      const e = only(exchanges);
      expect([e.method, e.params]).toEqual(["getMultipleCompressedAccountsV2", { hashes }]);
      expectAccountSet(value, records);
      // The client sorts by leafIndex descending; the reference answers in request order.
      const raw = (answerValue(e) as { items: unknown[] }).items;
      expect(raw).toHaveLength(records.length);
      raw.forEach((item, i) => expectWireAccount(view, item, records[i] as AccountRecord));
    },
  },

  getCompressedBalance: {
    run: async () => {
      const known = view.account(profile.knownHash);
      const cases: [string, bigint][] = [
        [profile.accountWithBigLamports.hash, U64_MAX],
        [profile.knownHash, BigInt(known.lamports)],
        [profile.spentHash, 0n],
        [profile.unknownHash, 0n],
      ];
      for (const [hash, lamports] of cases) {
        const { value, exchanges } = await traced(() => rpc.getCompressedBalance(undefined, bnOf(hash)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressedBalance", { hash }]);
        expect(big(value), hash).toBe(lamports);
      }
      const { value, exchanges } = await traced(() => rpc.getCompressedBalance(bnOf(profile.knownAddress)));
      expect(only(exchanges).params).toEqual({ address: profile.knownAddress });
      expect(big(value)).toBe(BigInt(known.lamports));
      expect(big(await rpc.getCompressedBalance(bnOf(profile.unknownAddress)))).toBe(0n);
    },
  },

  getCompressedBalanceByOwner: {
    run: async () => {
      const rich = view.ownerWithBigLamports();
      expect(rich.lamports > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      const cases: [string, bigint][] = [
        [rich.owner, rich.lamports],
        [profile.ownerWithOneAccount.owner, view.lamportsOfOwner(profile.ownerWithOneAccount.owner)],
        [profile.ownerWithOnlySpentAccounts.owner, 0n],
        [profile.ownerWithNoAccounts, 0n],
      ];
      for (const [owner, lamports] of cases) {
        const { value, exchanges } = await traced(() => rpc.getCompressedBalanceByOwner(keyOf(owner)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressedBalanceByOwner", { owner }]);
        expect(big(value), owner).toBe(lamports);
      }
    },
  },

  getCompressedAccountsByOwner: {
    run: async () => {
      // Every account of an owner with 2500, over default pages of 1000.
      const { owner, unspent } = profile.ownerWithManyAccounts;
      const seen: CompressedAccountWithMerkleContext[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressedAccountsByOwner(keyOf(owner), cursor ? { cursor } : undefined))) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(exchanges[0]?.params).toEqual({ owner, filters: [] });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedAccountsByOwnerV2")).toBe(true);
      expectPageSizes(sizes, unspent, 1000);
      expectAccountSet(seen, view.unspentOfOwner(owner));
      for (const e of exchanges)
        for (const raw of (answerValue(e) as { items: { hash: string }[] }).items) expectWireAccount(view, raw, view.account(raw.hash));

      // 1000 exactly: a full page with a cursor, then an empty page with none; limit 1: a page per account.
      const w1000 = await pages((cursor) => rpc.getCompressedAccountsByOwner(keyOf(profile.ownerWith1000.owner), cursor ? { cursor } : undefined));
      expect(w1000.map((p) => p.items.length)).toEqual([1000, 0]);
      const one = await pages((cursor) =>
        rpc.getCompressedAccountsByOwner(keyOf(profile.ownerWithOneAccount.owner), { limit: bn(1), ...(cursor ? { cursor } : {}) }),
      );
      expect(one.map((p) => p.items.length)).toEqual([1, 0]);
      expectAccountSet(
        one.flatMap((p) => p.items),
        view.unspentOfOwner(profile.ownerWithOneAccount.owner),
      );
      const none = await rpc.getCompressedAccountsByOwner(keyOf(profile.ownerWithNoAccounts));
      expect(none).toEqual({ items: [], cursor: null });

      // memcmp filters and dataSlice.
      const mc = profile.memcmpOwner;
      for (const f of mc.filters) {
        const filter = { memcmp: { offset: f.offset, bytes: f.bytes } };
        const { value, exchanges: fx } = await traced(() => rpc.getCompressedAccountsByOwner(keyOf(mc.owner), { filters: [filter] }));
        expect(only(fx).params).toEqual({ owner: mc.owner, filters: [filter] });
        const wanted = Buffer.from(bytesOf(f.bytes));
        const matching = view.unspentOfOwner(mc.owner).filter((a) => {
          if (a.data === null) return false;
          return Buffer.from(a.data.data, "base64")
            .subarray(f.offset, f.offset + wanted.length)
            .equals(wanted);
        });
        expect(matching).toHaveLength(f.count);
        expectAccountSet(value.items, matching);
      }
      const dataSlice = { offset: 1, length: 3 };
      const { value: sliced, exchanges: sx } = await traced(() => rpc.getCompressedAccountsByOwner(keyOf(mc.owner), { dataSlice }));
      expect(only(sx).params).toEqual({ owner: mc.owner, filters: [], dataSlice });
      expectAccountSet(sliced.items, view.unspentOfOwner(mc.owner), dataSlice);
    },
    timeout: 120_000,
  },
};
