/**
 * Signature histories and transactions against brute-force answers over hand-built datasets:
 * which transactions each query holds (Photon's account_transactions joins, spent accounts
 * included, distinct), in the given order, with every cursor position.
 */
import { describe, expect, it } from "vitest";
import { methods } from "../../../generated/methods.js";
import { TOKEN_PROGRAM, type SignatureRecord } from "../../../reference/records.js";
import { ReferenceStore } from "../../../reference/store.js";
import { buildDataset, oracle } from "./build.js";
import { expectSorted, order } from "./check.js";

const NEWEST_FIRST = methods.getCompressionSignaturesForTokenOwner.pagination?.order ?? [];
const OLDEST_FIRST = order(["slot", "asc", "integer"], ["signature", "asc", "base58-bytes"]);

for (const seed of [1, 2, 3]) {
  const built = buildDataset(seed);
  const { dataset } = built;
  const store = new ReferenceStore(dataset);
  const accountOf = new Map(dataset.accounts.map((a) => [a.hash, a]));
  const tokenOf = new Map(dataset.tokens.map((t) => [t.hash, t]));
  const touched = (s: SignatureRecord) => [...s.opened, ...s.closed];
  /** The transactions touching an account that `match`es (brute force: one scan per call). */
  const where = (match: (hash: string) => boolean) => dataset.signatures.filter((s) => touched(s).some(match));
  // Cursor probes between rows: a slot in the middle with the smallest and largest signatures.
  const middle = dataset.signatures[Math.floor(dataset.signatures.length / 2)] as SignatureRecord;
  const probes = [
    { slot: middle.slot, signature: "1111111111111111111111111111111111111111111111111111111111111111" },
    { slot: BigInt(middle.slot), signature: middle.signature },
    { slot: 2n ** 64n - 1n, signature: middle.signature },
    { slot: 0, signature: middle.signature },
  ];

  describe(`store signature histories (dataset ${seed})`, () => {
    it("holds several transactions per slot (so the signature breaks ties)", () => {
      expect(new Set(dataset.signatures.map((s) => s.slot)).size).toBeLessThan(dataset.signatures.length);
    });

    it("lists the transactions that opened or closed an account, by hash", () => {
      for (const a of dataset.accounts) {
        const want = where((h) => h === a.hash);
        expect(want.length).toBe(a.spent ? 2 : 1);
        for (const keys of [NEWEST_FIRST, OLDEST_FIRST]) expectSorted(store.signaturesForAccount(a.hash, keys), want, keys, probes);
        expect(store.openedBy(a.hash)?.opened).toContain(a.hash);
        if (a.spent) expect(store.closedBy(a.hash)?.closed).toContain(a.hash);
        else expect(store.closedBy(a.hash)).toBeNull();
      }
      expect(store.signaturesForAccount("11111111111111111111111111111111", NEWEST_FIRST).length).toBe(0);
    });

    it("lists every version of an address, by program owner and by token owner, spent accounts included", () => {
      const addresses = [...new Set(dataset.accounts.map((a) => a.address).filter((x): x is string => x !== null))];
      expect(addresses.some((x) => dataset.accounts.filter((a) => a.address === x).length > 1)).toBe(true);
      for (const address of addresses) {
        expectSorted(
          store.signaturesForAddress(address, NEWEST_FIRST),
          where((h) => accountOf.get(h)?.address === address),
          NEWEST_FIRST,
          probes,
        );
      }
      for (const owner of [...built.programOwners, TOKEN_PROGRAM]) {
        const want = where((h) => accountOf.get(h)?.owner === owner);
        expect(want.length).toBeGreaterThan(0);
        for (const keys of [NEWEST_FIRST, OLDEST_FIRST]) expectSorted(store.signaturesForOwner(owner, keys), want, keys, probes);
      }
      for (const owner of [...built.tokenOwners, built.zeroOwner]) {
        const want = where((h) => tokenOf.get(h)?.owner === owner);
        for (const keys of [NEWEST_FIRST, OLDEST_FIRST]) expectSorted(store.signaturesForTokenOwner(owner, keys), want, keys, probes);
        // The row-list forms keep the given order.
        expect(store.signatures(owner, NEWEST_FIRST)).toBe(store.signaturesForTokenOwner(owner, NEWEST_FIRST).rows);
        store.signatures(owner, NEWEST_FIRST).forEach((s, i) => expect(store.signaturesAfter(owner, BigInt(s.slot), s.signature, NEWEST_FIRST)).toBe(i + 1));
      }
      // A program owner that is also a token owner has two different histories.
      const both = built.programOwners[0] as string;
      expect(store.signaturesForOwner(both, NEWEST_FIRST).rows).not.toEqual(store.signaturesForTokenOwner(both, NEWEST_FIRST).rows);
    });

    it("lists every transaction, newest first or as asked", () => {
      for (const keys of [NEWEST_FIRST, OLDEST_FIRST]) expectSorted(store.latestSignatures(keys), dataset.signatures, keys, probes);
      // Dataset order is (slot, signature bytes) ascending: newest first is its reverse.
      expect(store.latestSignatures(NEWEST_FIRST).rows).toEqual([...dataset.signatures].reverse());
      const sorted = [...dataset.signatures].sort(oracle(OLDEST_FIRST));
      expect(sorted).toEqual(dataset.signatures);
    });

    it("returns a transaction with the accounts it opened and closed, token fields included", () => {
      for (const s of dataset.signatures) {
        const tx = store.transaction(s.signature);
        expect(tx?.signature).toBe(s);
        expect(tx?.opened.map((x) => x.account)).toEqual(s.opened.map((h) => accountOf.get(h)));
        expect(tx?.closed.map((x) => x.account)).toEqual(s.closed.map((h) => accountOf.get(h)));
        for (const x of [...(tx?.opened ?? []), ...(tx?.closed ?? [])]) expect(x.token).toBe(tokenOf.get(x.account.hash) ?? null);
        expect(tx?.closed.every((x) => x.account.spent)).toBe(true);
      }
      expect(dataset.signatures.some((s) => s.closed.some((h) => tokenOf.has(h)))).toBe(true);
      expect(store.transaction("1111111111111111111111111111111111111111111111111111111111111111")).toBeNull();
    });
  });
}
