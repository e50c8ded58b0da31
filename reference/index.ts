/**
 * `photon-indexer-kit/reference`: the reference indexer. `startReferenceIndexer(options)` serves
 * it over HTTP; dataset generation and files, the in-memory store and the method handlers are
 * here too, for building one by hand.
 */
export * from "./records.js";
export { generateDataset, MIN_ACCOUNTS, TREES } from "./dataset.js";
export type { GenerateOptions } from "./dataset.js";
export { datasetProfile } from "./profile.js";
export type { DatasetProfile, MemcmpCase } from "./profile.js";
export { datasetLines, readDataset, writeDataset, DatasetFormatError, FORMAT_NAME, FORMAT_VERSION } from "./dataset-file.js";
export { ReferenceStore } from "./store.js";
export type { BalanceRow, TokenEntry } from "./store.js";
export { createReferenceHandlers, PAGE_LIMIT } from "./handlers/index.js";
export { startReferenceIndexer, MAX_CONNECTIONS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, RATE_LIMIT_CODE } from "./serve.js";
export type { ReferenceIndexer, ReferenceOptions } from "./serve.js";
