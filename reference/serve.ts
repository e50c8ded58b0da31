/**
 * `startReferenceIndexer`: the reference indexer on a node:http server, with the fault
 * switches used to test clients and runners (`rateLimit`: HTTP 429 with a JSON-RPC error
 * body and Retry-After over N requests per second; `latencyMs`: a delay before each answer),
 * composed in front of the listener as middleware (faults.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createListener } from "../generated/index.js";
import { withMiddleware } from "@photon-indexer-kit/runtime";
import { generateDataset } from "./dataset.js";
import { latency, rateLimit } from "./faults.js";
import { readDataset } from "./dataset-file.js";
import { createReferenceHandlers } from "./handlers/index.js";
import type { Dataset } from "./records.js";
import { ReferenceStore } from "./store.js";

export interface ReferenceOptions {
  host?: string;
  /** 0 picks a free port. Default 8784, Photon's. */
  port?: number;
  /** A dataset file (JSON lines) to load instead of generating one. */
  dataset?: string;
  /** A dataset already in memory (tests). */
  data?: Dataset;
  seed?: number;
  accounts?: number;
  /** Requests per second; more within one second get HTTP 429 with Retry-After. */
  rateLimit?: number;
  /** Milliseconds to wait before answering each request. */
  latencyMs?: number;
  /**
   * Open connections; default 1024 (Photon's default). Beyond it node closes a new connection
   * as soon as it is accepted.
   */
  maxConnections?: number;
}

/** Photon's `--max-http-connections` default. */
export const MAX_CONNECTIONS = 1024;
/** A request's head must arrive within this (node's default is 60 s). */
export const HEADERS_TIMEOUT_MS = 20_000;
/** A whole request (head and body) must arrive within this (node's default is 300 s). */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface ReferenceIndexer {
  /** `http://host:port/` */
  readonly url: string;
  readonly store: ReferenceStore;
  readonly server: Server;
  close(): Promise<void>;
}

export { RATE_LIMIT_CODE } from "./faults.js";

export async function startReferenceIndexer(options: ReferenceOptions = {}): Promise<ReferenceIndexer> {
  const data =
    options.data ?? (options.dataset ? await readDataset(options.dataset) : generateDataset({ seed: options.seed ?? 1, accounts: options.accounts }));
  const store = new ReferenceStore(data);
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const listener = withMiddleware(
    createListener(createReferenceHandlers(store), {
      // The dataset never changes: an identical call gets the same answer.
      memoizeResults: { maxEntries: 4096, maxBytes: 64 * 1024 * 1024 },
      maxConnections,
      onError: (err, { method }) => process.stderr.write(`reference indexer: ${method} failed: ${(err as Error).stack ?? String(err)}\n`),
    }),
    // Outermost first: a rate-limited request is refused at once, not after the latency.
    options.rateLimit ? rateLimit(options.rateLimit) : null,
    options.latencyMs ? latency(options.latencyMs) : null,
  );
  const server = createServer({ keepAliveTimeout: 5000, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }, listener);
  server.maxConnections = maxConnections;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8784, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    store,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
