/**
 * Deliberately broken variants of the reference indexer, one defect each, for testing that
 * the runner catches what real deployments get wrong. A defect edits handler results (what a
 * buggy indexer computes) or the bytes on the wire (what a buggy server framework sends).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createListener, type Handlers } from "../../generated/index.js";
import { createReferenceHandlers, ReferenceStore, type Dataset } from "../../reference/index.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";

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

export async function startBroken(dataset: Dataset, defect: Defect): Promise<BrokenServer> {
  const base = createReferenceHandlers(new ReferenceStore(dataset));
  const handlers = { ...base, ...defect.handlers?.(base) } as Handlers;
  const server: Server = createServer(onWire(defect, createListener(handlers)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
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
