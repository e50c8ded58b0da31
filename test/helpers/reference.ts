import { afterAll, beforeAll } from "vitest";
import { startReferenceIndexer, type ReferenceIndexer, type ReferenceOptions } from "../../reference/serve.js";

/**
 * A reference indexer for a test file (or a describe block) on a free loopback port (`port: 0`
 * unless given): started before its tests (beforeAll), closed after them (afterAll). Returns an
 * accessor: call it inside hooks and tests.
 */
export function useReferenceIndexer(options: ReferenceOptions = {}): () => ReferenceIndexer {
  let indexer: ReferenceIndexer | undefined;
  beforeAll(async () => {
    indexer = await startReferenceIndexer({ port: 0, ...options });
  });
  afterAll(async () => {
    await indexer?.close();
  });
  return () => {
    if (indexer === undefined) throw new Error("the reference indexer is read before its beforeAll hook ran");
    return indexer;
  };
}
