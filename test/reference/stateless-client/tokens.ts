/** stateless.js checks of the token methods: accounts by owner and delegate, balances, mint holders. */
import { type ParsedTokenAccount, bn } from "@lightprotocol/stateless.js";
import { expect } from "vitest";
import { U64_MAX } from "../../../reference/index.js";
import type { TokenRecord } from "../../../reference/records.js";
import { big } from "../stateless/check.js";
import { answerValue, traced } from "../stateless/wire.js";
import {
  bnOf,
  type Check,
  dataset,
  expectPageSizes,
  expectTokenAccountSet,
  expectWireTokenAccounts,
  keyOf,
  methodsOf,
  only,
  pages,
  profile,
  rpc,
  view,
} from "./context.js";

export const tokenChecks: Readonly<Record<string, Check>> = {
  getCompressedTokenAccountsByOwner: {
    run: async () => {
      const t1000 = profile.tokenOwnerWith1000TokenAccounts;
      const seen: ParsedTokenAccount[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) =>
          rpc.getCompressedTokenAccountsByOwner(keyOf(t1000.owner), { limit: bn(400), ...(cursor ? { cursor } : {}) }),
        )) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenAccountsByOwnerV2")).toBe(true);
      expect(exchanges[0]?.params).toEqual({ owner: t1000.owner, limit: 400 });
      expectPageSizes(sizes, t1000.unspent, 400);
      expectTokenAccountSet(
        seen,
        view.unspentTokens((t) => t.owner === t1000.owner),
      );
      for (const e of exchanges) expectWireTokenAccounts(e);

      const t1001 = profile.tokenOwnerWith1001TokenAccounts;
      const p1001 = await pages((cursor) => rpc.getCompressedTokenAccountsByOwner(keyOf(t1001.owner), cursor ? { cursor } : {}));
      expect(p1001.map((p) => p.items.length)).toEqual([1000, 1]);
      expectTokenAccountSet(
        p1001.flatMap((p) => p.items),
        view.unspentTokens((t) => t.owner === t1001.owner),
      );

      const many = profile.tokenOwnerWithManyMints;
      const { value: byMint, exchanges: mx } = await traced(() => rpc.getCompressedTokenAccountsByOwner(keyOf(many.owner), { mint: keyOf(many.mint) }));
      expect(only(mx).params).toEqual({ owner: many.owner, mint: many.mint });
      expectTokenAccountSet(
        byMint.items,
        view.unspentTokens((t) => t.owner === many.owner && t.mint === many.mint),
      );

      // Frozen, delegated, with tlv (the client drops tlv; the wire keeps it), and u64::MAX.
      const { value: oneAccount, exchanges: ox } = await traced(() => rpc.getCompressedTokenAccountsByOwner(keyOf(profile.tokenOwnerWithOneAccount.owner)));
      expectTokenAccountSet(oneAccount.items, [view.tokens.get(profile.tokenOwnerWithOneAccount.hash) as TokenRecord]);
      expect(oneAccount.items[0]?.parsed.state).toBe(2);
      expectWireTokenAccounts(only(ox));
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      const { value: bigItems, exchanges: bx } = await traced(() =>
        rpc.getCompressedTokenAccountsByOwner(keyOf(bigOwner.owner), { mint: keyOf(bigOwner.maxMint) }),
      );
      expect(bigItems.items.map((i) => big(i.parsed.amount))).toEqual([U64_MAX]);
      expectWireTokenAccounts(only(bx));

      expect(await rpc.getCompressedTokenAccountsByOwner(keyOf(profile.tokenOwnerWithNoAccounts))).toEqual({ items: [], cursor: null });
    },
    timeout: 120_000,
  },

  getCompressedTokenAccountsByDelegate: {
    run: async () => {
      const delegate = view.delegateWithMostAccounts();
      const expected = view.unspentTokens((t) => t.delegate === delegate);
      const seen: ParsedTokenAccount[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(
          (cursor) => rpc.getCompressedTokenAccountsByDelegate(keyOf(delegate), { limit: bn(100), ...(cursor ? { cursor } : {}) }),
          500,
        )) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenAccountsByDelegateV2")).toBe(true);
      expect(exchanges[0]?.params).toEqual({ delegate, limit: 100 });
      expectPageSizes(sizes, expected.length, 100);
      expectTokenAccountSet(seen, expected);
      for (const e of exchanges) expectWireTokenAccounts(e);
    },
    timeout: 60_000,
  },

  getCompressedTokenAccountBalance: {
    run: async () => {
      const one = view.tokens.get(profile.tokenOwnerWithOneAccount.hash) as TokenRecord;
      const spent = dataset.tokens.find((t) => view.account(t.hash).spent && BigInt(t.amount) !== 0n) as TokenRecord;
      const cases: [string, bigint][] = [
        [profile.tokenAccountWithMaxAmount, U64_MAX],
        [one.hash, BigInt(one.amount)],
        [spent.hash, 0n],
        [profile.unknownHash, 0n],
      ];
      for (const [hash, amount] of cases) {
        const { value, exchanges } = await traced(() => rpc.getCompressedTokenAccountBalance(bnOf(hash)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressedTokenAccountBalance", { hash }]);
        expect(big(value.amount), hash).toBe(amount);
      }
    },
  },

  getCompressedTokenBalancesByOwner: {
    run: async () => {
      // Deprecated call: `token_balances` on the wire (snake_case), camel-cased by the client.
      const many = profile.tokenOwnerWithManyMints;
      const seen: { mint: string; balance: bigint }[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressedTokenBalancesByOwner(keyOf(many.owner), { limit: bn(7), ...(cursor ? { cursor } : {}) }))) {
          seen.push(...page.items.map((b) => ({ mint: b.mint.toBase58(), balance: big(b.balance) })));
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenBalancesByOwner")).toBe(true);
      expect(exchanges[0]?.params).toEqual({ owner: many.owner, limit: 7 });
      expect(Object.keys(answerValue(exchanges[0]) as object).sort()).toEqual(["cursor", "token_balances"]);
      expect(seen).toEqual(view.balances(many.owner));
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      for (const [mint, balance] of [
        [bigOwner.maxMint, U64_MAX],
        [bigOwner.sumMint, BigInt(bigOwner.sumBalance)],
      ] as const) {
        const res = await rpc.getCompressedTokenBalancesByOwner(keyOf(bigOwner.owner), { mint: keyOf(mint) });
        expect(res.items.map((b) => [b.mint.toBase58(), big(b.balance)])).toEqual([[mint, balance]]);
      }
      const zero = profile.ownerWithZeroBalance;
      const res = await rpc.getCompressedTokenBalancesByOwner(keyOf(zero.owner), { mint: keyOf(zero.mint) });
      expect(res.items.map((b) => [b.mint.toBase58(), big(b.balance)])).toEqual([[zero.mint, 0n]]);
    },
    timeout: 60_000,
  },

  getCompressedTokenBalancesByOwnerV2: {
    run: async () => {
      const t1001 = profile.tokenOwnerWith1001TokenAccounts;
      const seen: { mint: string; balance: bigint }[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(async (cursor) => {
          const res = await rpc.getCompressedTokenBalancesByOwnerV2(keyOf(t1001.owner), cursor ? { cursor } : {});
          expect(res.context.slot).toBe(dataset.slot);
          return res.value;
        })) {
          seen.push(...page.items.map((b) => ({ mint: b.mint.toBase58(), balance: big(b.balance) })));
          sizes.push(page.items.length);
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenBalancesByOwnerV2")).toBe(true);
      expect(Object.keys(answerValue(exchanges[0]) as object).sort()).toEqual(["cursor", "items"]);
      expect(sizes).toEqual([1000, 1]);
      expect(seen).toEqual(view.balances(t1001.owner));
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      const res = await rpc.getCompressedTokenBalancesByOwnerV2(keyOf(bigOwner.owner));
      expect(res.value.items.map((b) => ({ mint: b.mint.toBase58(), balance: big(b.balance) }))).toEqual(view.balances(bigOwner.owner));
      expect(res.value.items.some((b) => big(b.balance) === U64_MAX)).toBe(true);
    },
    timeout: 60_000,
  },

  getCompressedMintTokenHolders: {
    run: async () => {
      const mint = view.mintWithMostHolders();
      const seen: { owner: string; balance: bigint }[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(async (cursor) => {
          const res = await rpc.getCompressedMintTokenHolders(keyOf(mint), { limit: bn(100), ...(cursor ? { cursor } : {}) });
          expect(res.context.slot).toBe(dataset.slot);
          return res.value;
        }, 1000)) {
          seen.push(...page.items.map((h) => ({ owner: h.owner.toBase58(), balance: big(h.balance) })));
        }
      });
      expect(exchanges[0]?.params).toEqual({ mint, limit: 100 });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedMintTokenHolders")).toBe(true);
      const expected = view.holders(mint);
      expect(expected.length).toBeGreaterThan(100);
      expect(seen).toEqual(expected);
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      const maxHolders = await rpc.getCompressedMintTokenHolders(keyOf(bigOwner.maxMint));
      expect(maxHolders.value.items.map((h) => ({ owner: h.owner.toBase58(), balance: big(h.balance) }))).toEqual(view.holders(bigOwner.maxMint));
      expect(big((maxHolders.value.items[0] as { balance: bigint }).balance)).toBe(U64_MAX);
      const zero = profile.ownerWithZeroBalance;
      const zeroHolders = await rpc.getCompressedMintTokenHolders(keyOf(zero.mint));
      expect(zeroHolders.value.items.map((h) => [h.owner.toBase58(), big(h.balance)])).toEqual([[zero.owner, 0n]]);
    },
    timeout: 60_000,
  },
};
