/**
 * The HTTP surface of the listener, as jsonrpsee serves it (DECISIONS #82): POST on any path with a JSON
 * content type (else 415) goes to the body reader and then JSON-RPC; `GET /liveness` and
 * `GET /readiness` call those methods; OPTIONS is CORS preflight (200, as tower-http's CorsLayer
 * answers it); anything else is 405. Every answer carries the CORS headers (send.ts) but one:
 * connections are counted from their first request, and past the cap a request gets 429
 * text/plain without them (jsonrpsee refuses it before the middleware) and its connection is closed.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { BodyReader } from "./body.js";
import { asRpcError, INTERNAL_ERROR_NULL_BYTES, isThenable, NULL_BYTES } from "./envelope.js";
import type { RpcCore } from "./rpc.js";
import { sendBytes, sendClosing, sendJson, sendPreflight, TEXT_TYPE } from "./send.js";
import { stringifyJson } from "../json/stringify.js";

// jsonrpsee's text/plain answers end with a newline (jsonrpsee: http.rs `response` module).
const METHOD_NOT_ALLOWED_TEXT = Buffer.from("Used HTTP Method is not allowed. POST or OPTIONS is required\n");
const UNSUPPORTED_TYPE_TEXT = Buffer.from("Supplied content type is not allowed. Content-Type: application/json is required\n");
// jsonrpsee: http.rs `too_many_requests` (over the connection limit).
const TOO_MANY_CONNECTIONS_TEXT = Buffer.from("Too many connections. Please try again later.\n");

/** The POST content types jsonrpsee accepts, compared case-insensitively (DECISIONS #82; jsonrpsee: http.rs `is_json`). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.length === 16 || value.length === 30 || value.length === 31 ? value.toLowerCase() : "";
  return v === "application/json" || v === "application/json; charset=utf-8" || v === "application/json;charset=utf-8";
}

const OVER = Object.freeze({ over: true });
const COUNTED = Object.freeze({ over: false });

const CONNECTION = Symbol("photon.connection");

/** Per socket: whether its requests are refused (it came past the connection limit). */
type TrackedSocket = Socket & { [CONNECTION]?: { readonly over: boolean } };

export class HttpFront {
  /** Connections counted (first request seen, not closed yet). */
  private connections = 0;

  constructor(
    private readonly core: RpcCore,
    private readonly bodies: BodyReader,
    private readonly maxConnections: number,
  ) {}

  handle(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as TrackedSocket;
    const seen = socket[CONNECTION];
    if (seen === undefined ? this.admit(socket) : seen.over) {
      req.resume();
      sendClosing(res, 429, TOO_MANY_CONNECTIONS_TEXT, {}, false);
      return;
    }
    const method = req.method;
    if (method === "POST") {
      // DECISIONS #82: the path (and query) is ignored for POST; only the content type is checked.
      if (!isJsonContentType(req.headers["content-type"])) {
        sendBytes(res, 415, TEXT_TYPE, UNSUPPORTED_TYPE_TEXT);
        return;
      }
      this.bodies.read(req, res);
      return;
    }
    if (method === "GET") {
      // DECISIONS #82: exact URI match (`/liveness?x` is not proxied), GET only.
      const url = req.url;
      if (url === "/liveness" || url === "/readiness") {
        this.probe(req, res, url === "/liveness" ? "liveness" : "readiness");
        return;
      }
    } else if (method === "OPTIONS") {
      // Photon's CorsLayer answers every OPTIONS itself, whatever the path (tower-http 0.3.5 cors/mod.rs:606-616).
      sendPreflight(res);
      return;
    }
    sendBytes(res, 405, TEXT_TYPE, METHOD_NOT_ALLOWED_TEXT);
  }

  /** Counts a socket seen for the first time; true when it is past the connection limit (its requests are refused). */
  private admit(socket: TrackedSocket): boolean {
    const over = this.connections >= this.maxConnections;
    socket[CONNECTION] = over ? OVER : COUNTED;
    if (!over) {
      this.connections++;
      socket.once("close", () => this.connections--);
    }
    return over;
  }

  // -- Health probes -------------------------------------------------------------------------------

  /**
   * DECISIONS #82 / jsonrpsee `ProxyGetRequest`: `GET /liveness` and `GET /readiness` call the method with
   * id 0 and no params; a result is sent bare with HTTP 200, any error as HTTP 500 -32603.
   */
  probe(req: IncomingMessage, res: ServerResponse, method: "liveness" | "readiness"): void {
    const entry = this.core.table.get(method)!;
    let result: unknown;
    try {
      const p = entry.hasParams ? this.core.checkParams(entry, undefined) : undefined;
      result = entry.handler(p, { id: 0, method, request: req });
    } catch (err) {
      this.probeFailed(res, method, err);
      return;
    }
    if (isThenable(result)) {
      Promise.resolve(result).then(
        (value) => this.probeAnswer(res, method, value),
        (err: unknown) => this.probeFailed(res, method, err),
      );
      return;
    }
    this.probeAnswer(res, method, result);
  }

  private probeAnswer(res: ServerResponse, method: string, value: unknown): void {
    try {
      sendJson(res, 200, value === undefined || value === null ? NULL_BYTES : stringifyJson(value));
    } catch (err) {
      this.probeFailed(res, method, err);
    }
  }

  private probeFailed(res: ServerResponse, method: string, err: unknown): void {
    if (asRpcError(err) === undefined) this.core.report(err, method);
    sendJson(res, 500, INTERNAL_ERROR_NULL_BYTES);
  }
}
