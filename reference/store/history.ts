/**
 * Signature histories: which transactions each signature query returns. Photon keeps one
 * `account_transactions` row per (account hash, signature) for every account a transaction
 * created or spent (photon HEAD:src/ingester/parser/tx_event_parser.rs:155-179), and joins it
 * per query (HEAD:src/api/method/utils.rs:410-439, 483-537), spent accounts included (no
 * spent filter), DISTINCT over transactions:
 *
 * - by account hash: `account_transactions.hash = $1` (getCompressionSignaturesForAccount);
 * - by address: `JOIN accounts … WHERE accounts.address = $1`, every version of the address;
 * - by owner: `JOIN accounts … WHERE accounts.owner = $1`, the program owner (token accounts
 *   only when the owner is the token program);
 * - by token owner: `JOIN token_accounts … WHERE token_accounts.owner = $1`.
 *
 * Here `SignatureRecord.opened` and `.closed` are those rows.
 */
import type { AccountRecord, SignatureRecord, TokenRecord } from "../records.js";
import { pushDistinct } from "./order.js";

/** What a history is keyed by, for one account of a transaction (null: not in that history). */
export type HistoryKey = (hash: string, account: AccountRecord | undefined, token: TokenRecord | undefined) => string | null;

/** The distinct transactions touching each key, in dataset order. */
export function histories(
  signatures: readonly SignatureRecord[],
  accountOf: (hash: string) => AccountRecord | undefined,
  tokenOf: (hash: string) => TokenRecord | undefined,
  keyOf: HistoryKey,
): Map<string, SignatureRecord[]> {
  const out = new Map<string, SignatureRecord[]>();
  const visit = (s: SignatureRecord, hash: string) => {
    const key = keyOf(hash, accountOf(hash), tokenOf(hash));
    if (key !== null) pushDistinct(out, key, s);
  };
  for (const s of signatures) {
    for (const hash of s.opened) visit(s, hash);
    for (const hash of s.closed) visit(s, hash);
  }
  return out;
}

export const keyByAccountHash: HistoryKey = (hash) => hash;
export const keyByAddress: HistoryKey = (_hash, account) => account?.address ?? null;
export const keyByProgramOwner: HistoryKey = (_hash, account) => account?.owner ?? null;
export const keyByTokenOwner: HistoryKey = (_hash, _account, token) => token?.owner ?? null;
