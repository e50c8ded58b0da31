/**
 * Balances: of one account (also served as getCompressedBalance, the alias the generated
 * listener answers with this handler: DECISIONS row 53), of a program owner, and of one token
 * account (DECISIONS row 60).
 *
 * Reference choice where Photon is buggy (row 60, bug 3): getCompressedTokenAccountBalance by
 * `address` looks up the token account whose own `account.address` it is. Photon compares the
 * address with the token *owner* (src/api/method/utils.rs:276-279) and answers an arbitrary
 * unspent token account of that owner; the reference does not copy that.
 */
import { u64 } from "../records.js";
import { contextOf, type Family, lookupAccount, u64Sum } from "./support.js";

export const balanceHandlers = ((ref) => {
  const { store } = ref;
  const context = () => contextOf(ref);
  return {
    getCompressedAccountBalance(params) {
      // get_compressed_account_balance.rs:10-31: the lamports of the unspent account the lookup
      // names (address over hash), 0 when there is none.
      const account = lookupAccount(ref, params);
      return { context: context(), value: account === null ? 0 : account.lamports };
    },

    getCompressedBalanceByOwner(params) {
      // get_compressed_balance_by_owner.rs:17-41: the owner's `owner_balances` row (the sum of its
      // unspent lamports), 0 without one; a sum above u64::MAX fails to parse (-32000 Internal server error).
      return { context: context(), value: u64Sum(store.lamportsByOwner(params.owner)) };
    },

    getCompressedTokenAccountBalance(params) {
      // get_compressed_token_account_balance.rs:29-51: `{amount}` of the unspent token account the
      // lookup names, 0 when there is none. By address: the token account holding that address
      // (row 60's agreed lookup); by hash: `token_accounts.hash = $1 AND spent = false`.
      const account = lookupAccount(ref, params);
      const token = account === null ? undefined : store.token(account.hash);
      return { context: context(), value: { amount: token === undefined ? 0 : u64(token.amount) } };
    },
  };
}) satisfies Family;
