/**
 * The store's account, token-account, balance and holder lists against brute-force answers
 * over hand-built datasets, in the method table's orders and in other orders (the store
 * takes any documented order), with every cursor position.
 */
import { describe, expect, it } from "vitest";
import { methods } from "../../../generated/methods.js";
import { TOKEN_PROGRAM, U64_MAX, type AccountRecord, type TokenRecord } from "../../../reference/records.js";
import { ReferenceStore, type TokenEntry } from "../../../reference/store.js";
import { expectedBalanceRows } from "../oracles.js";
import { buildDataset } from "./build.js";
import { expectSorted, order, tableOrder } from "./check.js";

const ACCOUNTS = methods.getCompressedAccountsByOwner.pagination?.order ?? [];
const TOKEN_ACCOUNTS = methods.getCompressedTokenAccountsByOwner.pagination?.order ?? [];
const BALANCES = methods.getCompressedTokenBalancesByOwner.pagination?.order ?? [];
// Photon's holder order (get_compressed_mint_token_holders.rs:81-85) until the table has the method.
const HOLDERS = tableOrder("getCompressedMintTokenHolders", order(["balance", "desc", "integer"], ["owner", "desc", "base58-bytes"]));
const DELEGATED = tableOrder("getCompressedTokenAccountsByDelegate", TOKEN_ACCOUNTS);

/** Orders no method has, to show the store follows whatever order it is given. */
const ODD_ACCOUNTS = order(["slotCreated", "desc", "integer"], ["lamports", "asc", "integer"], ["hash", "asc", "base58-bytes"]);
const ODD_TOKENS = order(["tokenData.amount", "desc", "integer"], ["account.hash", "desc", "base58-bytes"]);
const ODD_BALANCES = order(["balance", "asc", "integer"], ["mint", "desc", "base58-bytes"]);

for (const seed of [1, 2, 3]) {
  const built = buildDataset(seed);
  const { dataset } = built;
  const store = new ReferenceStore(dataset);
  const tokenOf = new Map(dataset.tokens.map((t) => [t.hash, t]));
  const accountOf = new Map(dataset.accounts.map((a) => [a.hash, a]));
  const entries: TokenEntry[] = dataset.tokens
    .map((token) => ({ account: accountOf.get(token.hash) as AccountRecord, token, tokenData: token }))
    .filter((e) => !e.account.spent);
  const owners = [...new Set(dataset.accounts.map((a) => a.owner)), "11111111111111111111111111111111"];
  const otherAccounts = dataset.accounts.filter((a) => a.spent);

  describe(`store lists (dataset ${seed})`, () => {
    it("covers what it should (the dataset is not degenerate)", () => {
      expect(entries.length).toBeGreaterThan(20);
      expect(otherAccounts.length).toBeGreaterThan(10);
      expect(new Set(dataset.accounts.map((a) => a.leafIndex)).size).toBeLessThan(dataset.accounts.length);
    });

    it("lists an owner's unspent accounts in the given order, with every cursor position", () => {
      for (const owner of owners) {
        const want = dataset.accounts.filter((a) => a.owner === owner && !a.spent);
        for (const keys of [ACCOUNTS, ODD_ACCOUNTS]) {
          expectSorted(store.accountsByOwner(owner, keys), want, keys, otherAccounts.slice(0, 8));
        }
        // The row-list forms keep the given order.
        expect(store.ownerAccounts(owner, ACCOUNTS)).toBe(store.accountsByOwner(owner, ACCOUNTS).rows);
        const rows = store.ownerAccounts(owner, ACCOUNTS);
        rows.forEach((a, i) => expect(store.ownerPosition(owner, a.hash, ACCOUNTS)).toBe(i));
        for (const a of otherAccounts.slice(0, 5)) expect(store.ownerPosition(owner, a.hash, ACCOUNTS)).toBe(-1);
      }
    });

    it("packs an owner's data bytes in list order", () => {
      for (const owner of owners) {
        for (const keys of [ACCOUNTS, ODD_ACCOUNTS]) {
          const rows = store.accountsByOwner(owner, keys).rows;
          const packed = store.ownerData(owner, keys);
          rows.forEach((a, i) => {
            expect(packed.hasData[i]).toBe(a.data === null ? 0 : 1);
            const slice = packed.bytes.subarray(packed.start[i], packed.start[i + 1]);
            expect(slice.toString("base64")).toBe(a.data === null ? "" : a.data.data);
          });
          expect(store.ownerData(owner, keys)).toBe(packed);
        }
      }
    });

    it("lists token accounts by token owner and by delegate, all mints or one", () => {
      const keys = (e: TokenEntry) => [e.token.owner, e.token.delegate];
      const authorities = [...new Set(entries.flatMap(keys).filter((k): k is string => k !== null)), built.zeroOwner];
      const mints = [...built.mints, "11111111111111111111111111111111"];
      const probes = entries.slice(0, 6).map((e) => ({ tokenData: { mint: e.token.mint, amount: e.token.amount }, account: { hash: e.account.hash } }));
      for (const who of authorities) {
        for (const [kind, sameAs] of [
          ["owner", (t: TokenRecord) => t.owner === who],
          ["delegate", (t: TokenRecord) => t.delegate === who],
        ] as const) {
          const list = (keys: typeof TOKEN_ACCOUNTS, mint: string | null) =>
            kind === "owner" ? store.tokenAccountsByOwner(who, keys, mint) : store.tokenAccountsByDelegate(who, keys, mint);
          for (const keys of [kind === "owner" ? TOKEN_ACCOUNTS : DELEGATED, ODD_TOKENS]) {
            const account = (e: TokenEntry) => e.account;
            expectSorted(
              list(keys, null),
              entries.filter((e) => sameAs(e.token)),
              keys,
              probes,
              account,
            );
            for (const mint of mints)
              expectSorted(
                list(keys, mint),
                entries.filter((e) => sameAs(e.token) && e.token.mint === mint),
                keys,
                probes,
                account,
              );
          }
        }
      }
    });

    it("keeps the token-account range: mint and cursor rules on the full list", () => {
      for (const owner of built.tokenOwners) {
        const rows = store.tokenAccounts(owner, TOKEN_ACCOUNTS);
        expect(rows).toBe(store.tokenAccountsByOwner(owner, TOKEN_ACCOUNTS).rows);
        expect(store.tokenAccountRange(owner, null, null, TOKEN_ACCOUNTS)).toEqual([0, rows.length]);
        for (const mint of built.mints) {
          const inMint = rows.map((e, i) => [e, i] as const).filter(([e]) => e.token.mint === mint);
          const range = store.tokenAccountRange(owner, mint, null, TOKEN_ACCOUNTS);
          if (inMint.length === 0) expect(range[1] - range[0]).toBe(0);
          else expect(range).toEqual([inMint[0]?.[1], (inMint[inMint.length - 1]?.[1] as number) + 1]);
          for (const [e, i] of inMint) {
            // With a mint, only the cursor's hash counts (its mint may be any).
            expect(store.tokenAccountRange(owner, mint, { mint: built.mints[0] as string, hash: e.account.hash }, TOKEN_ACCOUNTS)).toEqual([i + 1, range[1]]);
            expect(store.tokenAccountRange(owner, null, { mint, hash: e.account.hash }, TOKEN_ACCOUNTS)).toEqual([i + 1, rows.length]);
          }
        }
      }
    });

    it("keeps one balance row per (token owner, mint) that ever had a non-zero amount, summing the unspent amounts", () => {
      const rows = expectedBalanceRows(dataset);
      expect(rows.some((r) => r.balance === 0n)).toBe(true);
      expect(rows.some((r) => r.balance > U64_MAX)).toBe(true);
      expect(store.tokenBalancesByOwner(built.zeroOwner, BALANCES).length).toBe(0);
      expect(dataset.tokens.some((t) => t.owner === built.zeroOwner)).toBe(true);
      const probes = built.mints.map((mint) => ({ mint, balance: 5n, owner: built.tokenOwners[1] }));
      for (const owner of [...built.tokenOwners, built.zeroOwner]) {
        const want = rows.filter((r) => r.owner === owner);
        for (const keys of [BALANCES, ODD_BALANCES]) {
          const list = store.tokenBalancesByOwner(owner, keys);
          expectSorted(list, list.rows, keys, probes);
          expect(list.rows.map((r) => `${r.owner}/${r.mint}=${r.balance}`).sort()).toEqual(want.map((r) => `${r.owner}/${r.mint}=${r.balance}`).sort());
        }
        expect(store.balances(owner, BALANCES)).toBe(store.tokenBalancesByOwner(owner, BALANCES).rows);
        store.balances(owner, BALANCES).forEach((r, i) => expect(store.balancesAfter(owner, r.mint, BALANCES)).toBe(i + 1));
      }
      for (const mint of [...built.mints, "11111111111111111111111111111111"]) {
        const want = rows.filter((r) => r.mint === mint);
        const list = store.mintHolders(mint, HOLDERS);
        expectSorted(list, list.rows, HOLDERS, probes);
        expect(list.rows.map((r) => `${r.owner}=${r.balance}`).sort()).toEqual(want.map((r) => `${r.owner}=${r.balance}`).sort());
        // The same row objects serve both lists.
        for (const r of list.rows) expect(store.tokenBalancesByOwner(r.owner, BALANCES).rows).toContain(r);
      }
    });

    it("sums an owner's unspent lamports as a bigint, past u64", () => {
      let above = false;
      for (const owner of [...owners, TOKEN_PROGRAM]) {
        const want = dataset.accounts.filter((a) => a.owner === owner && !a.spent).reduce((sum, a) => sum + BigInt(a.lamports), 0n);
        expect(store.lamportsByOwner(owner)).toBe(want);
        above ||= want > U64_MAX;
      }
      expect(above).toBe(true);
    });

    it("finds unspent token accounts by hash only", () => {
      for (const t of dataset.tokens) {
        const account = accountOf.get(t.hash) as AccountRecord;
        const entry = store.unspentToken(t.hash);
        if (account.spent) expect(entry).toBeNull();
        else expect(entry).toEqual({ account, token: t, tokenData: t });
      }
      const program = dataset.accounts.find((a) => !a.spent && !tokenOf.has(a.hash)) as AccountRecord;
      expect(store.unspentToken(program.hash)).toBeNull();
    });
  });
}
