/**
 * Inputs shared by the in-process figures: the reference dataset (seed 1, 20,000 accounts,
 * the suite's default), its profile, and real method results computed by the reference
 * handlers, as the client would receive them (serialised, then parsed losslessly).
 */
import type { CallContext } from "../../runtime/index.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import type { Handlers, Params, Result } from "../../generated/index.js";
import { createReferenceHandlers, datasetProfile, generateDataset, ReferenceStore } from "../../reference/index.js";
import type { Dataset, DatasetProfile } from "../../reference/index.js";

export interface Fixture {
  readonly dataset: Dataset;
  readonly profile: DatasetProfile;
  readonly handlers: Handlers;
}

let cached: Fixture | undefined;

export function fixture(): Fixture {
  if (cached === undefined) {
    const dataset = generateDataset({ seed: 1, accounts: 20_000 });
    cached = { dataset, profile: datasetProfile(dataset), handlers: createReferenceHandlers(new ReferenceStore(dataset)) };
  }
  return cached;
}

const CTX = {} as CallContext;

/** A page of getCompressedTokenAccountsByOwner for the owner of 1000 token accounts. */
export function tokenAccountsPage(limit: number): Result<"getCompressedTokenAccountsByOwner"> {
  const { handlers, profile } = fixture();
  const params: Params<"getCompressedTokenAccountsByOwner"> = { owner: profile.tokenOwnerWith1000TokenAccounts.owner, limit };
  const result = handlers.getCompressedTokenAccountsByOwner(params, CTX) as Result<"getCompressedTokenAccountsByOwner">;
  if (result.value.items.length !== Math.min(limit, 1000)) throw new Error(`expected ${limit} token accounts, got ${result.value.items.length}`);
  return result;
}

/** The JSON-RPC response text of a result, as the reference indexer writes it. */
export function responseText(result: unknown, id = 1): string {
  return stringifyJson({ jsonrpc: "2.0", result, id });
}

/** The result as a client holds it after a lossless parse (fresh objects; uint64 above 2^53 as bigint). */
export function asReceived<T>(result: T): T {
  return (parseJson(responseText(result)) as { result: T }).result;
}
