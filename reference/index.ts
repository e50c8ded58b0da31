/** The reference indexer: dataset generation and files, the in-memory store and the method handlers. */
export * from "./records.js";
export { generateDataset, MIN_ACCOUNTS, TREES } from "./dataset.js";
export type { GenerateOptions } from "./dataset.js";
export { datasetProfile } from "./profile.js";
export type { DatasetProfile, MemcmpCase } from "./profile.js";
export { datasetLines, readDataset, writeDataset, DatasetFormatError, FORMAT_NAME, FORMAT_VERSION } from "./format.js";
export { ReferenceStore } from "./store.js";
export type { BalanceRow, TokenEntry } from "./store.js";
export { createReferenceHandlers, PAGE_LIMIT } from "./handlers.js";
