/**
 * A deterministic dataset generator: same seed and size, same records (and so the same
 * file bytes) on every machine.
 *
 * The dataset is a timeline of compressed accounts in stateless.js's localnet trees (two V1
 * state trees, five batched state trees, a V1 and a batched address tree). About a fifth are
 * compressed-token accounts (owned by TOKEN_PROGRAM, with token records); the rest belong to
 * program owners. Every account is opened by one transaction and, when spent, closed by one
 * later (or same-slot) transaction; an update is one transaction closing the old version and
 * opening the new one, which keeps the address. Around the random bulk, fixed "role" entities
 * cover every edge the conformance suite checks (see roles/ and `datasetProfile`).
 *
 * The last 3% of slots are "late": batched-tree accounts created then stay in their output
 * queue (`inOutputQueue`, never spent), batched-tree accounts spent then stay in the input queue
 * (`inInputQueue`), and addresses of batched-tree accounts created then stay in the batched
 * address tree's queue (`queued`). Every batched-tree account has `seq` null, queued or not, as
 * Photon sends it (records.ts `AccountRecord.seq`).
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
