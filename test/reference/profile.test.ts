/** datasetProfile: the facts it names hold of the dataset. */
import { describe, expect, it } from "vitest";
import { datasetProfile, LOCALNET_TREES, TREES } from "../../reference/dataset.js";
import type { AccountRecord, SignatureRecord } from "../../reference/records.js";
import { formats, stringifyJson } from "../../runtime/index.js";
import { byteOrder, bytes, dataset, profile } from "./fixture.js";
import { expectedBalances, expectedHolders } from "./oracles.js";
import { accounts, byHash, closedBy, openedBy, typeOf } from "./dataset-index.js";

describe("datasetProfile", () => {
  it("is JSON-able with stringifyJson and stable for a seed", () => {
    const text = stringifyJson(profile);
    expect(text).toContain('"maxBalance":18446744073709551615');
    expect(stringifyJson(datasetProfile(dataset))).toBe(text);
  });

  it("names valid, distinct keys", () => {
    const keys = [
      profile.ownerWithManyAccounts.owner,
      profile.ownerWith1000.owner,
      profile.ownerWith1001.owner,
      profile.ownerWithOneAccount.owner,
      profile.ownerWithOnlySpentAccounts.owner,
      profile.ownerWithNoAccounts,
      profile.ownerWithBigBalance.owner,
      profile.ownerWithBatchedAccounts.owner,
      profile.addressWithHistory.owner,
      profile.memcmpOwner.owner,
      profile.tokenOwnerWithManyMints.owner,
      profile.tokenOwnerWith1000TokenAccounts.owner,
      profile.tokenOwnerWith1001TokenAccounts.owner,
      profile.tokenOwnerWithOneAccount.owner,
      profile.ownerWithZeroBalance.owner,
      profile.tokenOwnerWithBigAmounts.owner,
      profile.tokenOwnerWithNoAccounts,
      profile.delegateWithManyAccounts.delegate,
      profile.mintWithManyHolders.mint,
      profile.unknownAddress,
    ];
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(formats.pubkey(k)).toBe(true);
    for (const h of [profile.knownHash, profile.spentHash, profile.unknownHash, profile.closedAccount.hash]) expect(formats.hash(h)).toBe(true);
  });

  it("states the promised counts", () => {
    expect(profile.slot).toBe(dataset.slot);
    expect(profile.counts).toEqual({
      accounts: 20_000,
      unspentAccounts: accounts.filter((a) => !a.spent).length,
      tokenAccounts: 4_000,
      signatures: dataset.signatures.length,
      addresses: dataset.addresses.length,
    });
    expect(profile.trees).toEqual({
      stateV1: TREES.slice(0, 2),
      stateV2: TREES.slice(2),
      addressV1: LOCALNET_TREES[7]?.tree,
      addressV2: LOCALNET_TREES[8]?.tree,
    });
    expect(profile.ownerWithManyAccounts).toMatchObject({ unspent: 2500, lamportsOverflow: true });
    expect(profile.ownerWith1000.unspent).toBe(1000);
    expect(profile.ownerWith1001.unspent).toBe(1001);
    expect(profile.ownerWithOneAccount.unspent).toBe(1);
    expect(profile.ownerWithOnlySpentAccounts.spent).toBeGreaterThan(0);
    expect(profile.ownerWithLeafIndexTies.tiedLeafIndexes).toBeGreaterThanOrEqual(100);
    expect(profile.tokenOwnerWithManyMints.mints).toBeGreaterThanOrEqual(30);
    expect(profile.tokenOwnerWith1000TokenAccounts.unspent).toBe(1000);
    expect(profile.tokenOwnerWith1000TokenAccounts.sharedSlotSignatures).toBeGreaterThanOrEqual(10);
    expect(profile.tokenOwnerWith1001TokenAccounts).toMatchObject({ unspent: 1001, mints: 1001 });
    expect(profile.tokenOwnerWith1001TokenAccounts.signatures).toBeGreaterThan(1000);
    expect(profile.memcmpOwner.matching.count).toBeGreaterThan(0);
    expect(profile.memcmpOwner.nonMatching.count).toBe(0);
    expect(profile.tokenOwnerWithBigAmounts.sumBalance).toBe(2n ** 60n + 2n ** 53n + 1n);
  });

  it("gives the owner of its one queued account the newest leaf of bmt1", () => {
    const one = byHash.get(profile.ownerWithOneAccount.hash) as AccountRecord;
    expect(one).toMatchObject({ tree: TREES[2], seq: null, address: null, data: null, spent: false, inOutputQueue: true });
    expect(one.leafIndex).toBe(accounts.filter((a) => a.tree === TREES[2]).length - 1);
  });

  it("counts each token role owner's signatures as exactly the transactions touching its token accounts", () => {
    for (const role of [profile.tokenOwnerWith1000TokenAccounts, profile.tokenOwnerWith1001TokenAccounts]) {
      const mine = new Set(dataset.tokens.filter((t) => t.owner === role.owner).map((t) => t.hash));
      const touching = dataset.signatures.filter((s) => [...s.opened, ...s.closed].some((h) => mine.has(h)));
      expect(role.signatures).toBe(touching.length);
    }
  });

  it("names a program owner with more than a page of signatures", () => {
    const mine = new Set(accounts.filter((a) => a.owner === profile.ownerWithManyAccounts.owner).map((a) => a.hash));
    const touching = dataset.signatures.filter((s) => [...s.opened, ...s.closed].some((h) => mine.has(h)));
    expect(profile.ownerWithManyAccounts.signatures).toBe(touching.length);
    expect(touching.length).toBeGreaterThan(1000);
  });

  it("names an owner whose unspent lamports sum above 2^53", () => {
    const mine = accounts.filter((a) => a.owner === profile.ownerWithBigBalance.owner && !a.spent);
    const sum = mine.reduce((s, a) => s + BigInt(a.lamports), 0n);
    expect(mine.every((a) => BigInt(a.lamports) < 2n ** 53n)).toBe(true);
    expect(profile.ownerWithBigBalance).toEqual({ owner: profile.ownerWithBigBalance.owner, unspent: mine.length, balance: sum });
    expect(sum > 2n ** 53n).toBe(true);
  });

  it("names batched accounts in the tree, in the output queue and in the input queue", () => {
    const b = profile.ownerWithBatchedAccounts;
    const get = (h: string) => byHash.get(h) as AccountRecord;
    expect(b.inTree.length && b.inOutputQueue.length && b.inInputQueue.length && b.nullified.length).toBeGreaterThan(0);
    for (const h of b.inTree) expect(get(h).seq === null && !get(h).inOutputQueue && !get(h).spent && typeOf(get(h)) === "StateV2").toBe(true);
    for (const h of b.inOutputQueue) expect(get(h).seq === null && get(h).inOutputQueue && !get(h).spent && typeOf(get(h)) === "StateV2").toBe(true);
    for (const h of b.inInputQueue) expect(get(h).spent && get(h).inInputQueue).toBe(true);
    for (const h of b.nullified) expect(get(h).spent && !get(h).inInputQueue && typeOf(get(h)) === "StateV2").toBe(true);
    expect(b.unspent).toBe(b.inTree.length + b.inOutputQueue.length);
  });

  it("names an address with several versions, each update one transaction", () => {
    const { address, hashes, signatures } = profile.addressWithHistory;
    expect(hashes.length).toBeGreaterThanOrEqual(3);
    expect(hashes.map((h) => byHash.get(h)?.address)).toEqual(hashes.map(() => address));
    expect(hashes.map((h) => byHash.get(h)?.spent)).toEqual(hashes.map((_, i) => i < hashes.length - 1));
    const touching = dataset.signatures.filter((s) => [...s.opened, ...s.closed].some((h) => byHash.get(h)?.address === address));
    expect(new Set(signatures)).toEqual(new Set(touching.map((s) => s.signature)));
    signatures.forEach((sig, i) => {
      const s = dataset.signatures.find((x) => x.signature === sig) as SignatureRecord;
      expect(s.opened).toEqual([hashes[i]]);
      expect(s.closed).toEqual(i === 0 ? [] : [hashes[i - 1]]);
    });
  });

  it("names a spent account with its opening and closing transactions", () => {
    const { hash, openedBy: o, closedBy: c } = profile.closedAccount;
    expect(openedBy.get(hash)?.signature).toBe(o);
    expect(closedBy.get(hash)?.signature).toBe(c);
    expect(o).not.toBe(c);
  });

  it("names a delegate with more than a page of unspent token accounts over two mints", () => {
    const d = profile.delegateWithManyAccounts;
    const mine = dataset.tokens.filter((t) => t.delegate === d.delegate);
    const unspent = mine.filter((t) => !byHash.get(t.hash)?.spent);
    expect(d).toEqual({ delegate: d.delegate, unspent: unspent.length, mints: new Set(unspent.map((t) => t.mint)).size, spent: mine.length - unspent.length });
    expect(d.unspent).toBeGreaterThan(1000);
    expect(d.mints).toBeGreaterThanOrEqual(2);
  });

  it("names a mint with more than a page of holders, balance ties and one balance above 2^53", () => {
    const m = profile.mintWithManyHolders;
    // Photon's order (balance desc, owner desc) over the mint's balance rows.
    const ordered = expectedHolders(dataset, m.mint);
    expect(m.holders).toBe(ordered.length);
    expect(m.holders).toBeGreaterThan(1000);
    // The 1000th and 1001st holders share a balance: the cursor's owner part decides.
    expect(ordered[999]?.balance).toBe(ordered[1000]?.balance);
    expect([ordered[0]?.owner, ordered[0]?.balance]).toEqual([m.topHolder.owner, m.topHolder.balance]);
    expect(m.topHolder.balance > 2n ** 53n).toBe(true);
    expect(ordered.filter((r) => r.balance === 0n)).toHaveLength(m.zeroBalanceHolders);
    expect(m.zeroBalanceHolders).toBeGreaterThan(0);
    expect(m.tiedHolders).toBeGreaterThan(900);
  });

  it("names token owners whose balance rows keep their promises under the zero-balance rule", () => {
    const tokensOf = (owner: string) => dataset.tokens.filter((t) => t.owner === owner);
    const mintsHeld = (owner: string) => new Set(tokensOf(owner).map((t) => t.mint));
    const many = profile.tokenOwnerWithManyMints;
    expect(expectedBalances(dataset, many.owner).map((r) => r.mint)).toEqual([...mintsHeld(many.owner)].sort(byteOrder));
    expect(many.mints).toBe(40);
    const t1001 = profile.tokenOwnerWith1001TokenAccounts;
    expect(tokensOf(t1001.owner).every((t) => BigInt(t.amount) > 0n)).toBe(true);
    expect(expectedBalances(dataset, t1001.owner)).toHaveLength(t1001.mints);
    const zero = profile.ownerWithZeroBalance;
    const rows = expectedBalances(dataset, zero.owner);
    expect(rows).toHaveLength(zero.balances);
    expect(rows.find((r) => r.mint === zero.mint)?.balance).toBe(0);
    expect(
      tokensOf(zero.owner)
        .filter((t) => t.mint === zero.mint)
        .every((t) => byHash.get(t.hash)?.spent && BigInt(t.amount) > 0n),
    ).toBe(true);
    const zeroAmount = tokensOf(zero.owner).filter((t) => t.mint === zero.zeroAmountMint);
    expect(zeroAmount.map((t) => [t.amount, byHash.get(t.hash)?.spent])).toEqual([[0, false]]);
    expect(rows.some((r) => r.mint === zero.zeroAmountMint)).toBe(false);
    expect(mintsHeld(zero.owner).size).toBe(zero.balances + 1);
  });

  it("names absent entities that really are absent", () => {
    const everything = new Set([
      ...accounts.flatMap((a) => [a.hash, a.owner, a.address]),
      ...dataset.tokens.flatMap((t) => [t.owner, t.mint, t.delegate]),
      ...dataset.addresses.map((a) => a.address),
    ]);
    for (const k of [profile.unknownHash, profile.unknownAddress, profile.ownerWithNoAccounts, profile.tokenOwnerWithNoAccounts])
      expect(everything.has(k)).toBe(false);
    expect(bytes(profile.unknownAddress)[0]).toBe(0);
  });

  it("refuses a dataset that is not generator output", () => {
    expect(() => datasetProfile({ ...dataset, seed: null })).toThrow(/no seed/);
    expect(() => datasetProfile({ ...dataset, seed: 2 })).toThrow(/does not match/);
  });
});
