/** The store's transaction lists: the signature histories by account, address and owner, the latest signatures, and who opened and closed each account. */
import type { AccountRecord, Dataset, SignatureRecord, TokenRecord } from "../records.js";
import { Lazy } from "../lazy.js";
import { openers } from "./builders.js";
import { type HistoryKey, histories, keyByAccountHash, keyByAddress, keyByProgramOwner, keyByTokenOwner } from "./history.js";
import { SortedGroups } from "./order.js";

export class SignatureLists {
  readonly byAccount: SortedGroups<string, SignatureRecord>;
  readonly byAddress: SortedGroups<string, SignatureRecord>;
  readonly byOwner: SortedGroups<string, SignatureRecord>;
  readonly byTokenOwner: SortedGroups<string, SignatureRecord>;
  readonly latest: SortedGroups<string, SignatureRecord>;
  readonly bySignature: Lazy<Map<string, SignatureRecord>>;
  readonly openers: Lazy<ReturnType<typeof openers>>;
  private readonly histories: readonly [SortedGroups<string, SignatureRecord>, HistoryKey][];

  constructor(
    dataset: Dataset,
    private readonly account: (hash: string) => AccountRecord | undefined,
    private readonly token: (hash: string) => TokenRecord | undefined,
  ) {
    const history = (name: string, keyOf: HistoryKey) =>
      new SortedGroups<string, SignatureRecord>(name, () => histories(dataset.signatures, account, token, keyOf));
    this.byAccount = history("signaturesByAccount", keyByAccountHash);
    this.byAddress = history("signaturesByAddress", keyByAddress);
    this.byOwner = history("signaturesByOwner", keyByProgramOwner);
    this.byTokenOwner = history("signaturesByTokenOwner", keyByTokenOwner);
    this.histories = [
      [this.byAccount, keyByAccountHash],
      [this.byAddress, keyByAddress],
      [this.byOwner, keyByProgramOwner],
      [this.byTokenOwner, keyByTokenOwner],
    ];
    this.latest = new SortedGroups("latestSignatures", () => new Map([["", dataset.signatures.slice()]]));
    this.bySignature = new Lazy(() => new Map(dataset.signatures.map((s) => [s.signature, s])), "transactions");
    this.openers = new Lazy(() => openers(dataset.signatures), "openedBy");
  }

  /** Adds a new transaction to every list it belongs in (after the lookups know its accounts). */
  apply(s: SignatureRecord): void {
    this.latest.add("", s);
    for (const [history, keyOf] of this.histories) {
      const keys = new Set<string>();
      for (const hash of [...s.opened, ...s.closed]) keys.add(keyOf(hash, this.account(hash), this.token(hash)) ?? "");
      keys.delete("");
      for (const key of keys) history.add(key, s);
    }
    this.bySignature.peek()?.set(s.signature, s);
    const openers = this.openers.peek();
    for (const hash of s.opened) openers?.opened.set(hash, s);
    for (const hash of s.closed) openers?.closed.set(hash, s);
  }
}
