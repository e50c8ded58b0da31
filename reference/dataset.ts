/**
 * A deterministic dataset generator: same seed and size, same records and file bytes everywhere.
 * A timeline of compressed accounts in stateless.js's localnet trees, about a fifth token accounts,
 * plus fixed "role" entities for every edge the conformance suite checks (roles/, `datasetProfile`).
 * The last 3% of slots are "late": their batched-tree accounts and addresses stay in their queues.
 * Every batched-tree account has `seq` null, as Photon sends it (records.ts `AccountRecord.seq`).
 */
import { Generator } from "./dataset-generator.js";
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";
import type { Dataset } from "./records.js";

export { LOCALNET_TREES, TREES } from "./dataset-trees.js";
export { datasetProfile } from "./roles/index.js";
export type { DatasetProfile } from "./roles/index.js";

export interface GenerateOptions {
  /** Any safe integer. Default 1. */
  seed?: number;
  /** Total compressed accounts, spent ones and token accounts included. Default 20,000; at least MIN_ACCOUNTS. */
  accounts?: number;
}

/** The smallest size that holds every role entity (about 7,800 accounts) plus some random bulk. */
export const MIN_ACCOUNTS = 10_000;

export function generateDataset({ seed = 1, accounts = 20_000 }: GenerateOptions = {}): Dataset {
  if (!Number.isSafeInteger(seed)) throw new ReferenceIndexerError(RefErrorCode.OPTIONS, `seed must be a safe integer, got ${seed}`);
  if (!Number.isSafeInteger(accounts) || accounts < MIN_ACCOUNTS) {
    throw new ReferenceIndexerError(RefErrorCode.OPTIONS, `accounts must be an integer of at least ${MIN_ACCOUNTS}, got ${accounts}`);
  }
  return new Generator(seed, accounts).run();
}
