/**
 * `photon-indexer-kit/reference`: the reference indexer. `startReferenceIndexer(options)` serves
 * it over HTTP; dataset generation and files, the in-memory store, the Merkle trees (`Forest`,
 * `fold`) and the method handlers are here too, for building one by hand.
 */
export * from "./records.js";
export { generateDataset, MIN_ACCOUNTS, TREES } from "./dataset.js";
export type { GenerateOptions } from "./dataset.js";
export { datasetProfile } from "./roles/index.js";
export type { DatasetProfile, MemcmpCase } from "./roles/index.js";
export { datasetLines, readDataset, writeDataset, DatasetFormatError, FORMAT_NAME, FORMAT_VERSION } from "./dataset-file.js";
export { ReferenceStore } from "./store.js";
export type { BalanceRow, TokenEntry } from "./store.js";
export { createReferenceHandlers, PAGE_LIMIT } from "./handlers/index.js";
export type { HandlerOptions } from "./handlers/index.js";
export { Forest, fold, addressLeaf, ADDRESS_TREE_V1, TREE_TYPE_CODE, ZERO_HASH } from "./trees/forest.js";
export type {
  AccountProof,
  AccountProofV2,
  AccountProofInputs,
  AddressProofInputs,
  AddressProofOptions,
  AddressWithTree,
  MerkleContextV2,
  NewAddressProof,
  ProverRequest,
  TreeContextInfo,
  TreeRoot,
  ValidityProofInputsV1,
  ValidityProofInputsV2,
} from "./trees/forest.js";
export { placeholderProof } from "./handlers/prover.js";
export { ProverError } from "./errors.js";
export type { CompressedProof, GnarkProofJson } from "./handlers/prover.js";
export { startReferenceIndexer, MAX_CONNECTIONS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, RATE_LIMIT_CODE } from "./serve.js";
export type { ReferenceIndexer, ReferenceOptions } from "./serve.js";
