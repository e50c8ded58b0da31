/**
 * `startReferenceIndexer`: the reference indexer on a node:http server, with the fault
 * switches used to test clients and runners (`rateLimit`: HTTP 429 with a JSON-RPC error
 * body and Retry-After over N requests per second; `latencyMs`: a delay before each answer),
 * composed in front of the listener as middleware (faults.ts).
 *
 * The Merkle trees (trees/forest.ts) are built in the background once the server listens, a
 * slice of hashing per turn of the event loop, so that start-up stays quick and a proof asked for
 * later finds its tree built; a proof asked for during the warm-up finishes its own tree first.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createListener } from "../generated/index.js";
import { withMiddleware } from "@photon-indexer-kit/runtime";
import { generateDataset } from "./dataset.js";
import { latency, rateLimit } from "./faults.js";
import { readDataset } from "./dataset-file.js";
import { createReferenceHandlers } from "./handlers/index.js";
import { failureLine, LiveChain, type LiveOptions } from "./live/chain.js";
import { pinnedFor } from "./live/pinned.js";
import type { Dataset } from "./records.js";
import { ReferenceStore } from "./store.js";
import { Forest } from "./trees/forest.js";

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
  /**
   * A gnark prover's base URL, as Photon's `--prover-url`: validity proofs post their inputs to
   * `{proverUrl}/prove` and answer the real Groth16 proof. Without it they carry a placeholder
   * (not a proof; see handlers/prover.ts).
   */
  proverUrl?: string;
  /** Build every Merkle tree in the background from the start (default true); false builds each on its first proof. */
  warmTrees?: boolean;
  /**
   * Keep the serialised results of calls and the Merkle proofs written (default true): the dataset
   * never changes. False computes every answer (handler benchmarks); record items are cached either way.
   */
  memoize?: boolean;
  /**
   * A moving chain (`serve --live MS`): one deterministic change every `intervalMs` (live/chain.ts),
   * started once the trees are built; each request reads one state. The fixtures profile of the
   * dataset stays true: the stream moves none of the entities it names.
   */
  live?: LiveOptions;
}

/** Hashing per event-loop turn while trees build in the background: a request waits about this long per turn. */
const WARM_SLICE_MS = 2;

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
  /** The Merkle trees over the dataset, which the proof methods answer from. */
  readonly forest: Forest;
  readonly server: Server;
  /** Settles when the background tree build ends (finished, stopped by close(), or failed and reported); at once without it. */
  readonly warmed: Promise<void>;
  /** The moving chain, with `live`. */
  readonly live: LiveChain | null;
  close(): Promise<void>;
}

export { RATE_LIMIT_CODE } from "./faults.js";
export { MAX_INTERVAL_MS, MAX_LAG } from "./live/chain.js";

export async function startReferenceIndexer(options: ReferenceOptions = {}): Promise<ReferenceIndexer> {
  const data = options.data ?? (options.dataset ? await readDataset(options.dataset) : generateDataset({ seed: options.seed, accounts: options.accounts }));
  const store = new ReferenceStore(data);
  const forest = new Forest(data, options.memoize === false ? { keptProofBytes: 0 } : {});
  // One line per failure, escaped for the console (a prover's answer may hold anything), never a stack trace.
  const report = (what: string, err: unknown): void => {
    process.stderr.write(failureLine(what, err));
  };
  const live = options.live ? new LiveChain(data, store, forest, options.live, pinnedFor(store), report) : null;
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const listener = withMiddleware(
    createListener(createReferenceHandlers(store, { proverUrl: options.proverUrl }, forest), {
      // An identical call gets the same answer while the state stays (always, unless live).
      memoizeResults: options.memoize === false ? false : { maxEntries: 4096, maxBytes: 64 * 1024 * 1024 },
      gate: live?.gate,
      maxConnections,
      onError: (err, { method }) => report(method, err),
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
  // Stopped by close(); a tree that cannot be built fails again, with the same error, on the proof that needs it.
  const warming = new AbortController();
  const warmed =
    options.warmTrees === false
      ? Promise.resolve()
      : forest.warm({ signal: warming.signal, sliceMs: WARM_SLICE_MS }).catch((err: unknown) => report("building the Merkle trees", err));
  if (live !== null)
    void warmed.then(() => {
      if (!warming.signal.aborted) live.start();
    });
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    store,
    forest,
    server,
    warmed,
    live,
    close: () =>
      new Promise<void>((resolve) => {
        warming.abort();
        live?.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
