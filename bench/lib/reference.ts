/** What bench/children/reference.ts reports when it is ready. */
import type { DatasetProfile } from "../../reference/index.js";
import { startChild, type Server } from "./proc.js";

export interface ReferenceInfo {
  readonly url: string;
  readonly accounts: number;
  readonly seed: number;
  /** generateDataset, ms. */
  readonly generateMs: number;
  /** startReferenceIndexer with the dataset in memory (store indexes and listen), ms. */
  readonly indexMs: number;
  /** Peak resident set size once serving, bytes. */
  readonly maxRssBytes: number;
  /** The dataset's profile (u64 values above 2^53 arrive as plain JSON numbers here: only keys and counts are used). */
  readonly profile: DatasetProfile;
}

/** Starts the reference indexer over a generated dataset in a child process (`extra`: the child's flags, e.g. `--no-warm`). */
export function startReference(accounts = 20_000, seed = 1, extra: readonly string[] = []): Promise<Server<ReferenceInfo>> {
  return startChild<ReferenceInfo>("bench/children/reference.ts", ["--accounts", String(accounts), "--seed", String(seed), ...extra], 300_000);
}
