/**
 * A scripted JSON-RPC server on 127.0.0.1 whose indexer slot moves only when the test moves it:
 * `answer` builds each result from the current slot, and `script` runs before each answer
 * (the request's number, from 1) so a test can advance the slot after so many requests.
 */
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseJson } from "../../runtime/json/parse.js";
import { stringifyJson } from "../../runtime/json/stringify.js";
import { isObject } from "../../runtime/json/value.js";
import type { IndexerSlot } from "../../runtime/slots.js";

export interface MovingRequest {
  readonly method: string;
  readonly params: unknown;
}

export interface MovingServer {
  readonly url: string;
  /** The slot answers are read at now; the test (or `script`) moves it. */
  slot: IndexerSlot;
  readonly requests: MovingRequest[];
  /** Runs before each answer; `n` counts requests from 1; `res` is the reply about to be written. */
  script: (n: number, req: MovingRequest, res: ServerResponse) => void;
  /** The result of a request at `slot`. */
  answer: (req: MovingRequest, slot: IndexerSlot) => unknown;
  close(): Promise<void>;
}

export async function startMovingServer(answer: MovingServer["answer"]): Promise<MovingServer> {
  const state = {
    slot: 0 as IndexerSlot,
    requests: [] as MovingRequest[],
    script: (() => {}) as MovingServer["script"],
    answer,
  };
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const body = parseJson(text);
      const envelope = isObject(body) ? body : {};
      const got: MovingRequest = { method: String(envelope.method), params: envelope.params };
      state.requests.push(got);
      state.script(state.requests.length, got, res);
      const reply = { jsonrpc: "2.0", id: envelope.id ?? null, result: state.answer(got, state.slot) };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(stringifyJson(reply));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return Object.assign(state, {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}
