/**
 * Deliberately broken variants of the reference indexer, one defect each, for testing that
 * the runner catches what real deployments get wrong. A defect edits handler results (what a
 * buggy indexer computes) or the bytes on the wire (what a buggy server framework sends).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createListener, type Handlers } from "../../../generated/index.js";
import { createReferenceHandlers, datasetProfile, ReferenceStore, type Dataset } from "../../../reference/index.js";
import { LiveChain, type LiveOptions } from "../../../reference/live/chain.js";
import { pinnedBy } from "../../../reference/live/pinned.js";
import { Forest } from "../../../reference/trees/forest.js";
import { parseJson, stringifyJson } from "../../../runtime/index.js";

export interface Defect {
  /** Rewrites handlers (the indexer's logic). */
  readonly handlers?: (h: Handlers) => Partial<Handlers>;
  /** Rewrites each parsed JSON reply body (the wire). */
  readonly wire?: (body: unknown) => unknown;
  /** Rewrites each JSON reply's text after `wire` (how numbers are written, say). */
  readonly text?: (text: string) => string;
  /** Replaces response headers. */
  readonly headers?: Record<string, string>;
}

export interface BrokenServer {
  readonly url: string;
  close(): Promise<void>;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

function onWire(defect: Defect, next: Listener): Listener {
  return (req, res) => {
    const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, unknown>) => ServerResponse;
    const end = res.end.bind(res) as (body?: unknown) => ServerResponse;
    let head: [number, Record<string, unknown>] = [200, {}];
    (res as unknown as { writeHead: unknown }).writeHead = (status: number, headers: Record<string, unknown> = {}) => ((head = [status, headers]), res);
    (res as unknown as { end: unknown }).end = (body?: Buffer | string) => {
      let text = body === undefined ? "" : body.toString();
      if (defect.wire && text.length > 0 && /json/.test(String(head[1]["content-type"]))) text = stringifyJson(defect.wire(parseJson(text)));
      if (defect.text && text.length > 0 && /json/.test(String(head[1]["content-type"]))) text = defect.text(text);
      writeHead(head[0], { ...head[1], ...defect.headers, "content-length": Buffer.byteLength(text) });
      return end(text);
    };
    next(req, res);
  };
}

/**
 * The reference with one defect. With `live` it moves as `serve --live` does (the chain mutates
 * `dataset`: give it one of its own), each request reading one state; `tickBefore(n)` moves it
 * one slot before the n-th request too.
 */
export async function startBroken(
  dataset: Dataset,
  defect: Defect,
  options: { live?: LiveOptions; tickBefore?: (request: number) => boolean } = {},
): Promise<BrokenServer> {
  const store = new ReferenceStore(dataset);
  const forest = new Forest(dataset);
  const live = options.live
    ? new LiveChain(dataset, store, forest, options.live, pinnedBy(datasetProfile(dataset), store), (what, err) => {
        throw new Error(`${what}: ${String(err)}`);
      })
    : null;
  const base = createReferenceHandlers(store, {}, forest);
  const handlers = { ...base, ...defect.handlers?.(base) } as Handlers;
  const listener = onWire(defect, createListener(handlers, { gate: live?.gate }));
  // `tickBefore(n)`: the chain also moves one slot before the n-th request (1-based), whatever the machine's speed.
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    if (live !== null && options.tickBefore?.(requests)) live.tick();
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  live?.start();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => (live?.stop(), new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()))),
  };
}

/** Applies `edit` to `result.value` of success replies (single or batched). */
export function editValue(edit: (value: any) => void): (body: unknown) => unknown {
  const one = (b: any) => {
    if (b && typeof b === "object" && b.result && typeof b.result === "object" && b.result.value && typeof b.result.value === "object") edit(b.result.value);
    return b;
  };
  return (body) => (Array.isArray(body) ? body.map(one) : one(body));
}

/** Adds `by` to an integer kept as number or bigint. */
const plus = (n: number | bigint, by: number): number | bigint => (typeof n === "bigint" ? n + BigInt(by) : Number(n) + by);

/** Cross-method defects (checks/relations.test.ts): each breaks one relation between methods, nothing else. */
export const broken = {
  /** A V2 single lookup whose leafIndex is one more than V1's. */
  v2LeafIndexOffByOne: {
    handlers: (h) => ({
      getCompressedAccountV2: async (p, c) => {
        const r = await h.getCompressedAccountV2(p, c);
        return r.value ? { ...r, value: { ...r.value, leafIndex: plus(r.value.leafIndex, 1) } } : r;
      },
    }),
  },
  /** V2 owner pages whose last item has one lamport more than V1's. */
  v2LamportsOffByOne: {
    handlers: (h) => ({
      getCompressedAccountsByOwnerV2: async (p, c) => {
        const r = await h.getCompressedAccountsByOwnerV2(p, c);
        const items = r.value.items.map((a, i) => (i === r.value.items.length - 1 ? { ...a, lamports: plus(a.lamports, 1) } : a));
        return { ...r, value: { ...r.value, items } };
      },
    }),
  },
  /** Holders pages with their first two rows swapped (out of balance-desc order). */
  holdersOutOfOrder: {
    handlers: (h) => ({
      getCompressedMintTokenHolders: async (p, c) => {
        const r = await h.getCompressedMintTokenHolders(p, c);
        const [a, b, ...rest] = r.value.items;
        return a && b ? { ...r, value: { ...r.value, items: [b, a, ...rest] } } : r;
      },
    }),
  },
  /** V1 transactions that list no closed account (V2 left correct). */
  transactionOmitsClosed: {
    handlers: (h) => ({
      getTransactionWithCompressionInfo: async (p, c) => {
        const r = await h.getTransactionWithCompressionInfo(p, c);
        return { ...r, compressionInfo: { ...r.compressionInfo, closedAccounts: [] } };
      },
    }),
  },
  /** An owner's balance one lamport above the sum of its accounts. */
  ownerBalanceOffByOne: {
    handlers: (h) => ({
      getCompressedBalanceByOwner: async (p, c) => {
        const r = await h.getCompressedBalanceByOwner(p, c);
        return { ...r, value: plus(r.value, 1) };
      },
    }),
  },
  /** A token account's balance one above its amount. */
  tokenBalanceOffByOne: {
    handlers: (h) => ({
      getCompressedTokenAccountBalance: async (p, c) => {
        const r = await h.getCompressedTokenAccountBalance(p, c);
        return { ...r, value: { ...r.value, amount: plus(r.value.amount, 1) } };
      },
    }),
  },
} satisfies Record<string, Defect>;

/**
 * A newer deployment: every object under each reply's `result` (single or batched), at any depth,
 * gains the field `name` (a field the spec does not know). Iterative: answers can be deep.
 */
export function addedEverywhere(name: string, value: unknown = 7): Defect {
  const add = (result: unknown) => {
    const stack = [result];
    while (stack.length > 0) {
      const node = stack.pop();
      if (Array.isArray(node)) stack.push(...node);
      else if (node && typeof node === "object") {
        stack.push(...Object.values(node));
        (node as Record<string, unknown>)[name] = value;
      }
    }
  };
  return {
    wire: (body) => {
      for (const one of Array.isArray(body) ? body : [body]) if (one && typeof one === "object" && "result" in one) add(one.result);
      return body;
    },
  };
}

/** Each cross-method defect with the cases written to catch it and what their failure says (checks/relations.test.ts). */
export const relationCases: [string, Defect, string[], RegExp][] = [
  [
    "a V2 account whose leafIndex is off by one",
    broken.v2LeafIndexOffByOne,
    ["account-v2/agrees-v1-by-hash"],
    /semantics: differs from getCompressedAccount at leafIndex/,
  ],
  [
    "V2 owner pages whose lamports are off by one",
    broken.v2LamportsOffByOne,
    ["accounts-by-owner-v2/agrees-v1-walk", "accounts-by-owner-v2/agrees-v1-page"],
    /semantics: differs from getCompressedAccountsByOwner at .*lamports/,
  ],
  ["holders out of order", broken.holdersOutOfOrder, ["holders/sum-to-supply"], /pagination: .*order/],
  [
    "a transaction that omits a closed account",
    broken.transactionOmitsClosed,
    ["signatures-for-account/transactions-mention-account", "transactions/v2-agrees-v1", "transactions/closed-accounts-signatures"],
    /semantics: (follow items\[\d\] → getTransactionWithCompressionInfo .*compressionInfo matches none of the options|differs from getTransactionWithCompressionInfo at compressionInfo\.closedAccounts|result\.compressionInfo\.closedAccounts has fewer than 1 items)/,
  ],
  [
    "an owner balance that is not its accounts' sum",
    broken.ownerBalanceOffByOne,
    ["balances/owner-sum-of-accounts"],
    /semantics: the sum of getCompressedAccountsByOwner's lamports/,
  ],
  [
    "a token account balance that is not its amount",
    broken.tokenBalanceOffByOne,
    ["balances/token-balance-follows-amount"],
    /semantics: follow items\[0\] → getCompressedTokenAccountBalance/,
  ],
];
